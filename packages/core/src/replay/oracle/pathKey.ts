/**
 * The key under which the replay oracle treats two mentions of a file as the same file: the path
 * resolved against the session's workspace (or the shell call's directory). Windows paths, as the
 * gemini-cli sessions recorded on Windows hold them (`C:\…`, or `/C:/…` once the replay has
 * translated them), resolve with Windows rules and compare case-insensitively, as that file
 * system does.
 */
import path from 'node:path';

const WINDOWS_PATH = /^(?:[A-Za-z]:[\\/]|\\\\)/;
/** A Windows path in the POSIX form the replay translates it to: `/C:/Users/…`. */
const TRANSLATED_WINDOWS_PATH = /^\/[A-Za-z]:\//;

export function isWindowsPath(filePath: string): boolean {
  return WINDOWS_PATH.test(filePath);
}

function windowsForm(filePath: string): string | undefined {
  if (isWindowsPath(filePath)) return filePath;
  return TRANSLATED_WINDOWS_PATH.test(filePath) ? filePath.slice(1) : undefined;
}

/** `filePath` resolved against `base`; Windows paths (either of the two) by Windows rules. */
export function resolvePathKey(filePath: string, base: string): string {
  const windowsBase = windowsForm(base);
  const windowsPath = windowsForm(filePath);
  if (windowsBase !== undefined || windowsPath !== undefined) {
    const relative = windowsPath ?? filePath;
    return path.win32.resolve(windowsBase ?? 'C:\\', relative).toLowerCase();
  }
  return path.posix.resolve(base.startsWith('/') ? base : `/${base}`, filePath);
}
