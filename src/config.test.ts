import { ConfigError, loadConfig } from './config.js';

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
});
