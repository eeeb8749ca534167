/**
 * URLs of a browsed version's files and validation: a package file's download (the reviewer API,
 * with the caller's credentials) and the validation report of the upload the version came from
 * (the upload's 128-bit id is the capability, as for its uploader).
 */
export const browseUrls = {
  download: (base: string, addonId: number, versionId: number, path: string) =>
    `${base}/api/v4/reviewers/addon/${addonId}/versions/${versionId}/download/?file=${encodeURIComponent(path)}`,
  validation: (base: string, upload: string) => `${base}/developers/upload/${upload}`,
  validationJson: (base: string, upload: string) => `${base}/developers/upload/${upload}/json`,
};
