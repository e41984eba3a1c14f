import { statSync } from "node:fs";

/**
 * Secrets kept in files (the embedded cluster's superuser password, the encryption key) must
 * be private to the service's user: a file other users can read (or write) fails startup with
 * the command that fixes it, instead of running on a secret that may have leaked.
 */
export function assertPrivateFile(file: string, what: string): void {
  const { mode, uid } = statSync(file);
  if ((mode & 0o077) !== 0) {
    throw new Error(`${what} ${file} is accessible to other users (mode ${(mode & 0o777).toString(8)}); restrict it: chmod 600 ${file}`);
  }
  const me = process.getuid?.();
  if (me !== undefined && me !== 0 && uid !== me) {
    throw new Error(`${what} ${file} belongs to another user (uid ${uid}); it must belong to the user running the service (uid ${me})`);
  }
}
