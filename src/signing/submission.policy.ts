import type { User } from '../accounts/user.entity.js';
import { errors } from '../core/errors.js';
import { assertValidUrlGuid, isValidGuid } from './package/guid.js';
import { PackageError, packageErrors } from './package/package.errors.js';
import type { ParsedPackage } from './package/parse.js';
import { signingErrors } from './signing.errors.js';

export interface UploadNames {
  vendorName: string;
  browserName: string;
  /** Mail domains of the vendor's own staff: they may use reserved guids and trademarks. */
  vendorEmailDomains: readonly string[];
}

/**
 * What a package may claim, whoever uploads it (docs/compat-notes.md §3): the vendor's own add-on kinds
 * (experiments, vendor-signed packages), its trademarks in names and its reserved guid suffixes
 * are for its staff only; guids taken from a URL are checked as the original does.
 */
export class SubmissionPolicy {
  constructor(private readonly names: UploadNames) {}

  /** A guid from the URL used as the add-on's id (the package has none): checked as the original does. */
  urlGuid(guid: string | null): string | null {
    if (guid === null) return null;
    try {
      assertValidUrlGuid(guid);
    } catch (error) {
      if (error instanceof PackageError) throw errors.badRequest(error.message);
      throw error;
    }
    return guid;
  }

  /** The package's kind, name and guid for this uploader (`isNew`: the guid names no add-on yet). */
  assertAllowedContent(pkg: ParsedPackage, guid: string | null, user: User, isNew: boolean) {
    const staff = this.isVendorStaff(user);
    if (pkg.isExperiment && !staff) throw signingErrors.experiment();
    if (pkg.isSigned && !staff) throw signingErrors.vendorSigned(this.names.vendorName);
    if (!staff && pkg.name && this.misusesTrademark(pkg.name)) {
      throw signingErrors.trademark(this.names.vendorName, this.names.browserName);
    }
    if (guid === null) return;
    if (isNew && !staff) {
      const vendor = this.names.vendorName.toLowerCase();
      const reserved = [`@${vendor}.org`, `@shield.${vendor}.org`, `@pioneer.${vendor}.org`, `@${vendor}.com`];
      const suffix = reserved.find((s) => guid.toLowerCase().endsWith(s));
      if (suffix) throw signingErrors.reservedGuid(suffix);
    }
    if (!isValidGuid(guid)) throw errors.badRequest(packageErrors.invalidGuid().message);
  }

  private isVendorStaff(user: User): boolean {
    const domain = user.email.split('@').pop()?.toLowerCase() ?? '';
    return this.names.vendorEmailDomains.includes(domain);
  }

  /** A trademark may appear once, only as a trailing " for <Browser>". */
  private misusesTrademark(name: string): boolean {
    const lower = name.toLowerCase();
    const vendor = this.names.vendorName.toLowerCase();
    const browser = this.names.browserName.toLowerCase();
    if (lower.includes(vendor) && vendor !== browser) return true;
    const count = lower.split(browser).length - 1;
    return count > 1 || (count === 1 && !lower.endsWith(` for ${browser}`));
  }
}
