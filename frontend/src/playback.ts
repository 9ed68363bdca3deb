// Pause / step / skip / speed for a kind's board animation (kinds.ts): the shared playback controls of the
// game screen drive whichever animator the game's kind has. RoboRacer's Animator (animate.ts) and RAMbots'
// (rambots/animate.ts) both extend PlaybackBase, and so does a new kind's animator.
import type { Speed } from "./animate";

/** What the game screen's playback controls need of a kind's animator. */
export interface Playback {
  speed: Speed;
  readonly isPaused: boolean;
  pause(): void;
  resume(): void;
  step(): void;
  skip(): void;
  cancel(): void;
}

/** Whether the game screen shows Pause/Step/Skip and "Replay turn": not before the first turn has resolved
 * (a lobby, turn 1's programming), when there is nothing to play or replay; shown while one plays. */
export function playbackShown(lastResolvedTurn: number, moving: boolean, turn = 0): boolean {
  return lastResolvedTurn > 0 || moving || turn > 1;
}

/** Whether the speed buttons show: not in a lobby (no turn yet); from the first turn on, so the speed can be
 * chosen before that turn plays. */
export function speedsShown(status: string | undefined): boolean {
  return status !== undefined && status !== "lobby";
}

const BASE_MS = 300;

function ease(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
}

export class PlaybackBase implements Playback {
  speed: Speed = 1;
  protected generation = 0;
  protected skipping = false;
  private running = new Set<() => void>();
  private paused = false;
  private stepTokens = 0;
  private wake: (() => void) | null = null;

  get isPaused(): boolean {
    return this.paused;
  }

  cancel(): void {
    this.generation++;
    this.finishRunning();
    this.release();
  }

  skip(): void {
    this.skipping = true;
    this.finishRunning();
    this.release();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.release();
  }

  step(): void {
    if (!this.paused) return;
    this.stepTokens++;
    this.release();
  }

  /** A play() begins: no skip, no step left over. Returns its generation. */
  protected begin(): number {
    this.skipping = false;
    this.stepTokens = 0;
    return this.generation;
  }

  protected end(gen: number): void {
    if (gen === this.generation) this.skipping = false;
  }

  private release(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Wait here while paused (a step lets one group through). */
  protected async gate(gen: number): Promise<void> {
    while (this.paused && !this.skipping && gen === this.generation) {
      if (this.stepTokens > 0) {
        this.stepTokens--;
        return;
      }
      await new Promise<void>((resolve) => { this.wake = resolve; });
    }
  }

  private finishRunning(): void {
    for (const finish of [...this.running]) finish();
  }

  /** ms of an effect `factor` times the base length at the chosen speed (0 when instant or skipping). */
  protected duration(factor: number): number {
    if (this.skipping || this.speed === 0) return 0;
    return (BASE_MS * factor) / this.speed;
  }

  /** `ms` at 1x, at the chosen speed (0 when instant or skipping). */
  protected atSpeed(ms: number): number {
    if (this.skipping || this.speed === 0) return 0;
    return ms / this.speed;
  }

  /** Run frame(t) for t in (0,1], ending with frame(1). Robust against hidden tabs (timer fallback). */
  protected tween(ms: number, frame: (t: number) => void, linear = false): Promise<void> {
    if (ms <= 0 || (typeof document !== "undefined" && document.hidden) || this.skipping) {
      frame(1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const start = performance.now();
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.running.delete(finish);
        frame(1);
        resolve();
      };
      const timer = setTimeout(finish, ms + 200);
      this.running.add(finish);
      const step = (now: number): void => {
        if (done) return;
        const t = Math.min(1, (now - start) / ms);
        if (t >= 1) finish();
        else {
          frame(linear ? t : ease(t));
          requestAnimationFrame(step);
        }
      };
      requestAnimationFrame(step);
    });
  }

  protected wait(ms: number): Promise<void> {
    return this.tween(ms, () => undefined);
  }
}
