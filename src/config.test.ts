import { z } from 'zod';
import { ConfigError, loadConfig, settingsSlices } from './config.js';
import { loadSettings } from './core/settings.js';

describe('loadConfig', () => {
  it('has a zero-setup default: embedded database under ./data, port 8000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8000, HOST: '127.0.0.1', DATA_DIR: './data' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('treats empty values as unset and trims trailing slashes from URLs', () => {
    const config = loadConfig({
      DATABASE_URL: '',
      SITE_URL: 'https://addons.example/',
      OUTGOING_URL: 'https://out.example/v1/',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SITE_URL).toBe('https://addons.example');
    expect(config.OUTGOING_URL).toBe('https://out.example/v1');
  });

  it('lists every bad variable in one clear message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://db', SECRET_KEY: 'short', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems } = error as ConfigError;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT: .*\(got "99999"\)/);
    expect(problems.join('\n')).toContain('DATABASE_URL: must be a URL starting with postgres:// or postgresql://');
    expect(problems.join('\n')).toContain('SECRET_KEY: must be at least 32 characters');
    expect(problems.join('\n')).toContain('LOG_LEVEL:');
  });

  it('takes TRUST_PROXY as a hop count or proxy addresses, and refuses true', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,fd00::/8, loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    for (const value of ['true', 'TRUE', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: true would believe an X-Forwarded-For header sent by any client.*give the number of proxies/,
      );
    }
    for (const value of ['10.0.0.1,proxy.local', '10.0.0.0/33', '-1', '1.5', '10.0.0.1,']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be false, a number of proxies/);
    }
  });

  it('refuses self-reviews unless ALLOW_SELF_REVIEWS is set', () => {
    expect(loadConfig({}).ALLOW_SELF_REVIEWS).toBe(false);
    expect(loadConfig({ ALLOW_SELF_REVIEWS: 'true' }).ALLOW_SELF_REVIEWS).toBe(true);
  });

  it('runs several web processes only on a PostgreSQL server', () => {
    expect(loadConfig({}).WEB_PROCESSES).toBe(1);
    expect(() => loadConfig({ WEB_PROCESSES: '2' })).toThrow(
      /WEB_PROCESSES: above 1 needs DATABASE_URL \(the embedded database belongs to one process\)/,
    );
    expect(loadConfig({ WEB_PROCESSES: '2', DATABASE_URL: 'postgres://db/addons' }).WEB_PROCESSES).toBe(2);
    expect(() => loadConfig({ WEB_PROCESSES: '0' })).toThrow(ConfigError);
  });

  it('takes the heap growth in percent, 0 leaving V8 its own rule', () => {
    expect(loadConfig({}).HEAP_GROWING_PERCENT).toBe(50);
    expect(loadConfig({}).IDLE_GC_SECONDS).toBe(2);
    expect(loadConfig({ IDLE_GC_SECONDS: '0' }).IDLE_GC_SECONDS).toBe(0);
    expect(() => loadConfig({ IDLE_GC_SECONDS: '-1' })).toThrow(/IDLE_GC_SECONDS/);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-1' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '1.5' })).toThrow(ConfigError);
  });

  it('takes an SMTP server by URL (smtp: or smtps:) and a From address', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://user:pass@mail.example:587' }).SMTP_URL).toBe(
      'smtp://user:pass@mail.example:587',
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(ConfigError);
  });

  it('checks the rules across settings of a slice (search, storage, signing CA)', () => {
    expect(() => loadConfig({ SEARCH_ENGINE: 'meilisearch' })).toThrow(
      /MEILI_URL: is required when SEARCH_ENGINE=meilisearch/,
    );
    expect(loadConfig({ SEARCH_ENGINE: 'meilisearch', MEILI_URL: 'http://meili:7700' }).MEILI_URL).toBe(
      'http://meili:7700',
    );
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET: is required when STORAGE=s3/);
    expect(() => loadConfig({ SIGNING_CA_CERT_FILE: '/ca.pem' })).toThrow(
      /SIGNING_CA_KEY_FILE: SIGNING_CA_CERT_FILE and SIGNING_CA_KEY_FILE go together/,
    );
  });

  it("derives the sign-in providers, refusing a provider's bad settings", () => {
    const env = {
      SIGNIN_PROVIDERS: 'keycloak',
      OIDC_KEYCLOAK_ISSUER: 'https://id.example',
      OIDC_KEYCLOAK_CLIENT_ID: 'x',
    };
    expect(loadConfig(env).signinProviders.map((p) => p.issuer)).toEqual(['https://id.example']);
    expect(() => loadConfig({ ...env, OIDC_KEYCLOAK_ISSUER: 'http://id.example' })).toThrow(
      /OIDC_KEYCLOAK_ISSUER: must be https/,
    );
  });

  it('stops at boot when two slices declare one variable', () => {
    const intruder = { owner: 'intruder', shape: { WEBHOOKS_TIMEOUT_MS: z.string().optional() } };
    expect(() => loadSettings([...settingsSlices, intruder], {})).toThrow(
      /WEBHOOKS_TIMEOUT_MS: declared by both webhooks and intruder/,
    );
  });
});
