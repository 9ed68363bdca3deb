// The game screen's playback controls, shared by every game kind: pause, step, skip, the speeds and
// "Replay turn". They drive whatever Playback the mounted kind has (playback.ts).
import type { Speed } from "./animate";
import { h } from "./dom";
import { type Playback, playbackShown, speedsShown } from "./playback";

const SPEEDS: { value: Speed; label: string }[] = [
  { value: 0.5, label: "0.5×" },
  { value: 1, label: "1×" },
  { value: 2, label: "2×" },
  { value: 4, label: "4×" },
  { value: 0, label: "Instant" },
];

/** What the controls show: the last resolved turn, whether a turn plays or replays. */
export interface ControlsState {
  lastTurn: number;
  moving: boolean;
  replaying: number | null;
  turn: number;
  /** The game's status ("demo" for the offline demo). */
  status: string | undefined;
}

export class PlaybackControls {
  readonly el: HTMLElement;
  /** The board animation they drive (the mounted kind's); null before the first snapshot. */
  player: Playback | null = null;
  speed: Speed;
  private readonly playbackGroup: HTMLElement;
  private readonly speedsGroup: HTMLElement;
  private readonly replayGroup: HTMLElement;
  private readonly skipBtn: HTMLButtonElement;
  private readonly pauseBtn: HTMLButtonElement;
  private readonly stepBtn: HTMLButtonElement;
  private readonly replaySelect: HTMLSelectElement;
  private readonly replayBtn: HTMLButtonElement;
  private readonly speedBtns: HTMLButtonElement[] = [];

  /** `replay`: the player asked for a past turn; `changed`: pause or resume (the controls are drawn again). */
  constructor(parent: HTMLElement, private readonly replay: (turn: number) => void, private readonly changed: () => void) {
    const playback = h("div", { class: "rr-playback", role: "group", "aria-label": "Animation controls" });
    this.pauseBtn = h("button", { type: "button", id: "pause-animation", "aria-pressed": "false" }, "Pause");
    this.pauseBtn.addEventListener("click", () => this.togglePause());
    this.stepBtn = h("button", { type: "button", id: "step-animation", "aria-label": "Play the next step, then pause" }, "Step");
    this.stepBtn.addEventListener("click", () => this.player?.step());
    this.skipBtn = h("button", { type: "button", id: "skip-animation", "aria-label": "Skip to the end of this turn's animation" }, "Skip");
    this.skipBtn.addEventListener("click", () => {
      if (this.player?.isPaused) this.togglePause();
      this.player?.skip();
    });
    playback.append(this.pauseBtn, this.stepBtn, this.skipBtn);

    const speeds = h("div", { class: "rr-speeds", role: "group", "aria-label": "Animation speed" });
    speeds.appendChild(h("span", { class: "rr-playback-label", "aria-hidden": "true" }, "Speed"));
    // Without a choice of their own, people who ask for reduced motion get instant turns.
    let saved: Speed = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? 0 : 1;
    try {
      const raw = new URLSearchParams(location.search).get("speed") ?? localStorage.getItem("roboracer-speed");
      if (raw !== null && SPEEDS.some((s) => s.value === Number(raw))) saved = Number(raw) as Speed;
    } catch { /* storage unavailable */ }
    for (const s of SPEEDS) {
      const b = h("button", {
        type: "button", class: "rr-speed", "data-speed": String(s.value),
        "aria-label": s.value === 0 ? "Instant animation" : `Animation speed ${s.label}`,
      }, s.label);
      b.addEventListener("click", () => this.setSpeed(s.value, true));
      this.speedBtns.push(b);
      speeds.appendChild(b);
    }

    const replayBox = h("div", { class: "rr-replay" });
    const replayLabel = h("label", { for: "replay-turn" }, "Replay turn");
    this.replaySelect = h("select", { id: "replay-turn", "aria-label": "Replay turn number", title: "Turn to replay" });
    this.replayBtn = h("button", { type: "button", id: "replay-button" }, "Replay");
    this.replayBtn.addEventListener("click", () => {
      const n = Number(this.replaySelect.value);
      if (n > 0) this.replay(n);
    });
    replayBox.append(replayLabel, this.replaySelect, this.replayBtn);
    const controls = h("div", { class: "rr-controls" });
    controls.append(playback, speeds, replayBox);
    this.playbackGroup = playback;
    this.speedsGroup = speeds;
    this.replayGroup = replayBox;
    parent.append(controls);
    this.el = controls;
    this.speed = saved;
    this.setSpeed(saved, false);
  }

  /** The mounted kind's animation: it plays at the chosen speed. */
  drive(player: Playback): void {
    this.player = player;
    player.speed = this.speed;
  }

  private setSpeed(speed: Speed, remember: boolean): void {
    this.speed = speed;
    if (this.player) this.player.speed = speed;
    for (const b of this.speedBtns) b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === speed));
    if (remember) {
      try { localStorage.setItem("roboracer-speed", String(speed)); } catch { /* ignore */ }
    }
  }

  private togglePause(): void {
    if (this.player?.isPaused) this.player.resume();
    else this.player?.pause();
    this.changed();
  }

  update(state: ControlsState): void {
    const paused = this.player?.isPaused ?? false;
    this.pauseBtn.textContent = paused ? "Resume" : "Pause";
    this.pauseBtn.setAttribute("aria-pressed", String(paused));
    this.pauseBtn.setAttribute("aria-label", paused ? "Resume the animation" : "Pause the animation");
    this.stepBtn.disabled = !paused || !state.moving;
    this.skipBtn.disabled = !state.moving;
    const last = state.lastTurn;
    const options = [...this.replaySelect.options].map((o) => Number(o.value));
    const wanted = Array.from({ length: last }, (_, i) => last - i);
    if (options.join() !== wanted.join()) {
      this.replaySelect.replaceChildren(...wanted.map((n) => h("option", { value: String(n) }, `Turn ${n}`)));
    }
    // While a turn is replayed (one by one from "Replay the game" too) the box shows that turn.
    if (state.replaying !== null && this.replaySelect.value !== String(state.replaying)) this.replaySelect.value = String(state.replaying);
    // Nothing to play back yet (a lobby, the first turn): the playback and replay controls hide, and the
    // speeds in a lobby.
    const shown = playbackShown(last, state.moving, state.turn);
    this.playbackGroup.hidden = this.replayGroup.hidden = !shown;
    this.speedsGroup.hidden = !shown && !speedsShown(state.status);
    this.replaySelect.disabled = last === 0;
    this.replayBtn.disabled = last === 0 || state.moving;
  }
}
