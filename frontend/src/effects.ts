// The board's effects (BotLayer.animate hands them here): shots and beams, modules (drones, bombs, blasts,
// shields, shocks, stores), flashes, radiation, the remains of destroyed robots and speech bubbles.
import { DIR_ANGLE } from "./board";
import { BotLayer, type BoardChange, type BotVisual } from "./bots";

export class EffectLayer extends BotLayer {
  protected override async effect(change: BoardChange, ms: number, gen: number): Promise<void> {
    switch (change.kind) {
      case "shot": {
        const el = this.board.shot(change.from, change.to, change.dir, change.beams, change.source, change.hit, change.module);
        await this.fade(el, ms, 0.5);
        return;
      }

      case "deploy":
      case "bomb": {
        // A drone: its owner's colour and number, smaller, marked "D"; a bomb: where it lies.
        const owner = this.bots.get(change.owner);
        const old = this.bots.get(change.bot);
        if (old) this.removeShape(old);
        const drone = change.kind === "deploy";
        const v: BotVisual = {
          id: change.bot, kind: drone ? "drone" : "bomb", shape: null, x: change.at[0], y: change.at[1],
          dir: drone ? change.dir : "N", angle: drone ? DIR_ANGLE[change.dir] : 0, virtual: true, lives: 1, damage: 0,
          color: owner?.color ?? "#888888", label: owner?.label ?? "",
          title: `${owner ? owner.title.replace(/'s robot.*$/, "") : change.owner}'s ${drone ? "drone" : "bomb"}`,
        };
        this.bots.set(change.bot, v);
        this.makeShape(v);
        const shape = v.shape;
        if (shape) {
          await this.tween(ms, (t) => {
            this.board.poseBot(shape, v.x, v.y, v.angle, 0.3 + 0.7 * t);
            shape.g.setAttribute("opacity", String(0.5 * t));
          });
        }
        if (gen === this.generation) this.writeAttrs(v);
        return;
      }

      case "blast": {
        const v = this.bots.get(change.bot);
        const el = this.board.blast(change.squares);
        if (v) {
          this.removeShape(v);
          this.bots.delete(change.bot);
        }
        await this.fade(el, ms, 0.4);
        return;
      }

      case "fizzle": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const shape = v.shape;
        if (shape) {
          await this.tween(ms, (t) => {
            this.board.poseBot(shape, v.x, v.y, v.angle, 1 - 0.7 * t);
            shape.g.setAttribute("opacity", String(0.5 * (1 - t)));
          });
        }
        this.removeShape(v);
        this.bots.delete(change.bot);
        return;
      }

      case "shield": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        await this.fade(this.board.shield(v.x, v.y), ms, 0.4);
        return;
      }

      case "shock": {
        const el = this.board.shock(change.from, change.to);
        const v = this.bots.get(change.target);
        const flash = v ? this.board.flash(v.x, v.y, "damage") : null;
        await Promise.all([this.fade(el, ms, 0.5), flash ? this.fade(flash, ms, 0.3) : Promise.resolve()]);
        return;
      }

      case "store": {
        // A face-down chip rises from the bot and shrinks away: storage, never which chip.
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.storedChip(v.x, v.y);
        const cx = v.x * 100 + 50, cy = v.y * 100 + 50;
        await this.tween(ms, (t) => {
          el.setAttribute("transform", `translate(${cx} ${(cy - 60 * t).toFixed(1)}) scale(${(1 - 0.6 * t).toFixed(3)})`);
          el.setAttribute("opacity", String(t < 0.7 ? 1 : (1 - t) / 0.3));
        });
        el.remove();
        return;
      }

      case "flash": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.flash(v.x, v.y, change.tone);
        await this.fade(el, ms, 0.3);
        return;
      }

      case "radiation":
        this.board.radiation(change.at);
        return;

      case "remains":
        this.board.setRemains(change.squares);
        return;

      case "remains_drop": {
        // The pieces fly out from the point of death to their squares.
        const [fx, fy] = change.from;
        const pieces = change.squares.map((at) => ({ at, el: this.board.addRemains(at) }));
        await this.tween(ms, (t) => {
          for (const { at, el } of pieces) {
            const x = (fx + (at[0] - fx) * t) * 100, y = (fy + (at[1] - fy) * t) * 100;
            el.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
          }
        });
        return;
      }

      case "remains_move": {
        const el = this.board.remainsAt(change.from)[0];
        if (!el) return;
        const [fx, fy] = change.from, [tx, ty] = change.to;
        el.setAttribute("data-at", `${tx},${ty}`);
        await this.tween(ms, (t) => {
          el.setAttribute("transform", `translate(${((fx + (tx - fx) * t) * 100).toFixed(1)} ${((fy + (ty - fy) * t) * 100).toFixed(1)})`);
        }, true);
        return;
      }

      case "remains_take": {
        // Collected, lost in a hole or merged away: that many pieces on the square fade and shrink.
        const els = this.board.remainsAt(change.at).slice(0, Math.max(1, change.pieces));
        const [x, y] = change.at;
        await this.tween(ms, (t) => {
          for (const el of els) {
            el.setAttribute("transform", `translate(${x * 100 + 50 * t} ${y * 100 + 50 * t}) scale(${(1 - t).toFixed(3)})`);
          }
        });
        for (const el of els) el.remove();
        return;
      }

      case "bubble": {
        const v = this.bots.get(change.bot);
        if (!v) return;
        const el = this.board.bubble(v.x, v.y, change.text, change.tone);
        await this.fade(el, ms, 0.7);
        return;
      }
    }
  }
}
