// One CPU-bound process for `npm run test:busy`: spins on the CPU until its parent goes away or
// tells it to stop. It spins in slices and yields between them, so that the IPC channel to the
// parent is read: when the parent exits (however it exits, even killed), the channel closes
// and the spinner ends itself; nothing is left running on the machine.
// On stop it sends the CPU time it used, so the parent can say how much load it really added.

const SLICE_MS = 50;

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function stop(): never {
  process.exit(0);
}

if (!process.send) {
  process.stderr.write('spinner: run me through child_process.fork (I need an IPC channel to my parent)\n');
  process.exit(2);
}

process.on('disconnect', stop);
// The parent may have gone while this process was still loading, before the listener above.
if (!process.connected) stop();
const parent = process.ppid;
process.on('message', (m) => {
  if (m !== 'stop') return;
  process.send!({ cpuSeconds: cpuSeconds() }, () => stop());
});

let sink = 0;
function spin(): void {
  const end = Date.now() + SLICE_MS;
  while (Date.now() < end) sink = (sink + Math.sqrt(sink + 1)) % 1e9;
  // An orphan is adopted by another process: its parent is gone, even if no event said so.
  if (process.ppid !== parent) stop();
  setImmediate(spin);
}
spin();
