import { readFile } from 'node:fs/promises';
import type { Settings as Config } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import type { SecretBox } from '../core/secrets.js';
import type { AddonSigner } from './crypto/index.js';
import type { SigningTools } from './upload-processor.js';
import { Validator } from './validation/validator.js';

/**
 * The linter workers and the signing authority, started on first use (a process that never
 * validates or signs, like a CLI command or most tests, pays for neither) or by `warmUp`. The
 * signing code (node-forge) is imported then too, not at every start.
 */
export class LazySigningTools implements SigningTools {
  private validatorStarted: Promise<Validator> | null = null;
  private signerStarted: Promise<AddonSigner> | null = null;

  constructor(
    private readonly config: Config,
    private readonly box: SecretBox,
    private readonly logger: Logger,
  ) {}

  validator(): Promise<Validator> {
    this.validatorStarted ??= this.startValidator();
    return this.validatorStarted;
  }

  signer(): Promise<AddonSigner> {
    this.signerStarted ??= this.startSigner();
    return this.signerStarted;
  }

  /**
   * Starts the signing authority in the background (the server does this after it listens). The
   * linter worker is left to the first upload, as after an idle stop (VALIDATOR_IDLE_SECONDS): it
   * takes 120-200 MB, which a process serving no uploads should not hold, and starts in ~1-2 s.
   */
  warmUp(): void {
    this.signer().catch((err: unknown) => this.logger.error({ err }, 'signing tools failed to start'));
  }

  async close(): Promise<void> {
    const [validator, signer] = await Promise.allSettled([this.validatorStarted, this.signerStarted]);
    if (validator.status === 'fulfilled' && validator.value) await validator.value.close();
    if (signer.status === 'fulfilled' && signer.value) await signer.value.close();
  }

  private async startValidator(): Promise<Validator> {
    const validator = new Validator({
      poolSize: this.config.VALIDATOR_WORKERS,
      timeoutMs: this.config.VALIDATOR_TIMEOUT_SECONDS * 1000,
      idleMs: this.config.VALIDATOR_IDLE_SECONDS * 1000,
      logger: this.logger,
    });
    await validator.start();
    return validator;
  }

  private async startSigner(): Promise<AddonSigner> {
    const { SIGNING_CA_CERT_FILE: certFile, SIGNING_CA_KEY_FILE: keyFile } = this.config;
    const { AddonSigner, loadOrCreateAuthority } = await import('./crypto/index.js');
    const authority = await loadOrCreateAuthority({
      dataDir: this.config.dataDir,
      commonName: `${this.config.SITE_URL ? new URL(this.config.SITE_URL).hostname : 'Local'} Add-ons Root CA`,
      box: this.box,
      keyBits: this.config.SIGNING_CA_KEY_BITS,
      ...(certFile && keyFile
        ? { certPem: await readFile(certFile, 'utf8'), keyPem: await readFile(keyFile, 'utf8') }
        : {}),
    });
    this.logger.info({ fingerprint: authority.fingerprint, source: authority.source }, 'signing authority ready');
    return AddonSigner.start(authority, { poolSize: this.config.SIGNING_KEY_POOL });
  }
}
