/**
 * Engines that hold costly state between jobs (a started LibreOffice: seconds and 247 MB to start
 * again) ask their worker to be kept longer when idle; otherwise an idle worker goes quickly and
 * its memory back to the device.
 */
const holders = new Set<string>();

export const IDLE_KEEP_MS = 30_000;
export const IDLE_KEEP_HOLDING_MS = 10 * 60_000;

export function holdWorker(holder: string, holding: boolean): void {
  if (holding) holders.add(holder);
  else holders.delete(holder);
}

/** How long the bridge should keep this worker when it is idle. */
export function idleKeepMs(): number {
  return holders.size > 0 ? IDLE_KEEP_HOLDING_MS : IDLE_KEEP_MS;
}
