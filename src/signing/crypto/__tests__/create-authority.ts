// Child process for the cross-process race test: prints the CA this process ended up with.
import { Keyring } from '../../../core/secrets.js';
import { loadOrCreateAuthority } from '../authority.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: create-authority.ts <dataDir>');
const ca = await loadOrCreateAuthority({
  dataDir,
  commonName: 'Race CA',
  box: new Keyring('k'.repeat(40)).box('signing-ca'),
  keyBits: 2048,
});
console.log(JSON.stringify({ fingerprint: ca.fingerprint, source: ca.source }));
