// Preloaded into a second Payframe server by e2e/13-*.spec.ts (`node --import`): SIGUSR2 moves the
// process's clock two hours ahead, so a checkout session can expire without waiting for its TTL.
// Test-only; nothing in Payframe loads it.
const RealDate = Date;
let offset = 0;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = ShiftedDate;
process.on('SIGUSR2', () => {
  offset += 2 * 60 * 60 * 1000;
});
