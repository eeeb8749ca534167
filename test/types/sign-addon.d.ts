/** The parts of sign-addon 6.4.0 (ships no types) the tests use. */
declare module 'sign-addon' {
  export interface SignAddonOptions {
    xpiPath: string;
    version: string;
    apiKey: string;
    apiSecret: string;
    id?: string;
    channel?: 'listed' | 'unlisted';
    apiUrlPrefix?: string;
    downloadDir?: string;
    timeout?: number;
    disableProgressBar?: boolean;
    verbose?: boolean;
  }
  export interface SignAddonResult {
    success: boolean;
    id: string;
    downloadedFiles: string[];
    errorCode?: 'SERVER_FAILURE' | 'VALIDATION_FAILED' | 'ADDON_NOT_AUTO_SIGNED';
    errorDetails?: string;
  }
  export function signAddon(options: SignAddonOptions): Promise<SignAddonResult>;
}
