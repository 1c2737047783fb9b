// Drawing paced to the device (the live table, the watch view).
//
// A live table can send updates faster than a slow device draws a whole table (a
// phone at a fast bot table, a busy machine). Drawn one by one, the page fell ever
// further behind the game. A Pacer draws at once while drawing keeps up; when an
// update comes before the last drawing's cost has passed, one drawing follows the
// backlog instead, as its last state stands. An unpaced Pacer draws every state at once
// (fixtures, the replay, a watch view driven directly), so a reader finds each drawn.

const clockMs = () => globalThis.performance?.now() ?? Date.now();

export class Pacer {
  /** @param {() => void} draw  draws the latest state  @param {boolean} paced */
  constructor(draw, paced = true) {
    this.drawFn = draw;
    this.paced = paced;
    this.end = -Infinity;      // when the last drawing ended, and what it cost (ms)
    this.cost = 0;
    this.timer = null;
  }

  /** Draw now, or (paced) once the backlog is read. */
  soon() {
    if (this.timer !== null) return;
    if (!this.paced || clockMs() - this.end >= this.cost) return this.now();
    this.timer = setTimeout(() => this.now(), Math.min(200, Math.max(16, this.cost)));
  }

  /** Draw now (a scheduled drawing is then not needed). */
  now() {
    this.cancel();
    const start = clockMs();
    this.drawFn();
    this.end = clockMs();
    this.cost = this.end - start;
  }

  cancel() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
