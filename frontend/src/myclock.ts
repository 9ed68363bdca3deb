// Your own clock beside your Submit (issue 37, item 2): shown while your clock runs (you have a move to make),
// on every viewport; in the last WARN_SECONDS it turns red and, unless you turned sound off, beeps once.
// The kind's screen says where it goes (KindScreen.clockSlot); the shared panel ticks it with the seat clocks.
import { h } from "./dom";
import { clockText, formatDuration, timeLeft, type SeatClock, type TimeLeft } from "./clock";

export const WARN_SECONDS = 30;
const SOUND_KEY = "roboracer-clock-sound";

/** The time that runs out first on a running clock (move time, then game time); Infinity when none counts. */
export function remaining(t: TimeLeft): number {
  if (!t.running) return Infinity;
  return (t.onGameTime ? t.game : t.move ?? t.game) ?? Infinity;
}

/** Low: a running clock with under WARN_SECONDS of the time that counts now. */
export function isLow(t: TimeLeft): boolean {
  return t.running && remaining(t) < WARN_SECONDS;
}

function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

export class MyClock {
  readonly el: HTMLElement;
  private readonly time: HTMLElement;
  private readonly sound: HTMLButtonElement;
  /** Times the warning sounded (the browser test reads it as data-warned). */
  private warned = 0;
  private wasLow = false;

  constructor() {
    this.el = h("div", { id: "my-clock", class: "my-clock" });
    this.time = h("span", { class: "my-clock-time", role: "timer", "aria-label": "Your time" });
    this.sound = h("button", { type: "button", id: "clock-sound", class: "my-clock-sound" });
    this.sound.addEventListener("click", () => {
      try {
        localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      } catch { /* no storage: the choice lasts as long as the page */ }
      this.showSound();
    });
    this.el.append(h("span", { class: "my-clock-label" }, "Your time"), this.time, this.sound);
    this.el.hidden = true;
    this.showSound();
  }

  private showSound(): void {
    const on = soundOn();
    this.sound.textContent = on ? "♪" : "♪ off";
    this.sound.setAttribute("aria-pressed", String(on));
    this.sound.setAttribute("aria-label", on ? "Warning sound on (turn off)" : "Warning sound off (turn on)");
    this.sound.title = this.sound.getAttribute("aria-label") ?? "";
  }

  /** Show my clock as of `now` (server time, ms); hidden when I have no running clock. */
  tick(clock: SeatClock | undefined, now: number): void {
    const t = clock ? timeLeft(clock, now) : null;
    const shown = !!t && t.running;
    this.el.hidden = !shown;
    if (!t || !shown) {
      this.wasLow = false;
      return;
    }
    // The time that counts now, short enough to sit beside Submit on a phone ("1:45", or "game 9:12").
    const text = t.expired ? "expired" : `${t.onGameTime ? "game " : ""}${formatDuration(remaining(t))}`;
    if (this.time.textContent !== text) this.time.textContent = text;
    const full = clockText(t);
    if (this.time.title !== full) this.time.title = full;
    const low = isLow(t);
    this.el.classList.toggle("low", low);
    if (low && !this.wasLow) {
      this.warned++;
      this.el.dataset.warned = String(this.warned);
      if (soundOn()) beep();
    }
    this.wasLow = low;
  }
}

/** A short beep (Web Audio); silently nothing where the browser allows no sound yet. */
function beep(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
    osc.onended = () => void ctx.close();
  } catch { /* no audio here */ }
}
