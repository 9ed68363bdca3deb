// RAMbots screen parts with a fake DOM (fakedom.ts): the programming panel (no Speedbots draft over a compiled
// program, my own seat's ready from another page makes the panel take the server's program first, spectators
// get no program card), the turn log while a round plays (a line waits for its whole instruction) and the
// goal counts while the goal stacks are being built.
import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { watchingText } from "../src/dom";
import { RamBoard, shortName } from "../src/rambots/board";
import { describePlayed, describeTurn } from "../src/rambots/log";
import { applyRamEvent, cloneState, readMe } from "../src/rambots/model";
import { DRAFT_DELAY_MS, RambotsPanel } from "../src/rambots/panel";
import { seatGoalText, stateOf } from "../src/rambots/status";
import type { EngineEvent, Snapshot } from "../src/types";
import { FakeElement, installFakeDocument } from "./fakedom";
import { BEFORE, ROUND2, snapshot } from "./rambots-fixture";

installFakeDocument();
(globalThis as unknown as { window: unknown }).window = globalThis;

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function speedSnap(rambots: Record<string, unknown> = {}): Snapshot {
  const snap = snapshot({ options: { speedbots: true } } as Partial<Snapshot>, { ...BEFORE, options: { speedbots: true } });
  const me = snap.me as unknown as { rambots: Record<string, unknown> };
  me.rambots = { goals_for: "2", goals_made: null, program: null, compiled: false, draft: null, ...rambots };
  return snap;
}

/** A panel and what it sent; `render()` as the screen's render does (the snapshot's me, read again). */
function mountPanel(snap: Snapshot, answer: (body: unknown) => Promise<void> | void = () => undefined) {
  const parent = new FakeElement("section");
  const sent: Record<string, unknown>[] = [];
  let fetches = 0;
  let fetched: (s: Snapshot | null) => void = () => undefined;
  let changed = 0;
  const panel = new RambotsPanel(parent as unknown as HTMLElement, async (body) => {
    sent.push(body as Record<string, unknown>);
    await answer(body);
    return { ok: true, status: 200, data: body };
  }, () => { changed++; });
  panel.fetchMine = () => {
    fetches++;
    return new Promise((resolve) => { fetched = resolve; });
  };
  const el = panel.el as unknown as FakeElement;
  const state = { snap };
  const render = (s: Snapshot = state.snap): void => {
    state.snap = s;
    panel.update(s, stateOf(s), readMe((s.me as { rambots?: unknown } | null)?.rambots ?? null), false);
  };
  const byId = (id: string) => el.all().find((e) => e.getAttribute("id") === id);
  const filled = () => el.all().filter((e) => e.classList.contains("ram-slot") && e.classList.contains("filled"))
    .map((e) => `${e.dataset.piece} ${e.dataset.dir}`);
  const piece = (name: string) => el.all().find((e) => e.classList.contains("ram-piece") && e.dataset.piece === name) as FakeElement;
  return {
    panel, el, sent, render, byId, filled, piece, state,
    get fetches() { return fetches; }, get changed() { return changed; },
    answerFetch: (s: Snapshot | null) => fetched(s),
  };
}

test("Speedbots: no draft is saved on opening the page or on a re-render, only after a change of mine", async (t) => {
  mock.timers.enable({ apis: ["setTimeout"] });
  t.after(() => mock.timers.reset());
  const p = mountPanel(speedSnap({ draft: [{ piece: "S-red", dir: "N" }] }));
  p.render();
  p.render();
  mock.timers.tick(DRAFT_DELAY_MS * 3);
  p.render(speedSnap({ draft: [{ piece: "S-red", dir: "N" }] })); // a pushed snapshot
  mock.timers.tick(DRAFT_DELAY_MS * 3);
  await flush();
  assert.deepEqual(p.sent, []);
  assert.deepEqual(p.filled(), ["S-red N"]);
  // A tap of mine: saved once it rests, uncompiled.
  p.piece("M-blue").click();
  mock.timers.tick(DRAFT_DELAY_MS + 10);
  await flush();
  assert.equal(p.sent.length, 1);
  assert.equal(p.sent[0].compiled, false);
  assert.deepEqual(p.sent[0].program, [{ piece: "S-red", dir: "N" }, { piece: "M-blue", dir: "N" }]);
});

test("my seat turns ready from another page: nothing is edited or saved until the server's program is taken", async (t) => {
  mock.timers.enable({ apis: ["setTimeout"] });
  t.after(() => mock.timers.reset());
  // This page opened before ada compiled on her phone: an empty, uncompiled program.
  const snap = speedSnap();
  const p = mountPanel(snap);
  p.render();
  assert.deepEqual(p.filled(), []);
  // The phone compiles: main.ts marks the seat ready, tells the kind's screen, then renders.
  snap.seats[0].ready = true;
  p.panel.ownSeat(true);
  p.render();
  assert.equal(p.fetches, 1, "the server's program is fetched");
  assert.match(p.byId("ram-program")?.textContent ?? p.el.textContent, /loading it/);
  // A tap now changes nothing and no draft goes out, however long it rests.
  p.piece("M-blue").click();
  assert.deepEqual(p.filled(), []);
  mock.timers.tick(DRAFT_DELAY_MS * 5);
  await flush();
  assert.deepEqual(p.sent, [], "no draft over the compiled program");
  // The server's answer: three instructions, compiled.
  const server = speedSnap({
    compiled: true, program: [{ piece: "S-red", dir: "E" }, { piece: "M-blue", dir: "S" }, { piece: "L-red", dir: "up" }],
  });
  server.seats[0].ready = true;
  p.answerFetch(server);
  await flush();
  assert.deepEqual(p.filled(), ["S-red E", "M-blue S", "L-red up"]);
  assert.equal(p.byId("ram-uncompile")?.hidden, false);
  assert.equal(p.byId("ram-compile")?.disabled, true);
  assert.equal((p.state.snap.me as unknown as { rambots: { compiled: boolean } }).rambots.compiled, true, "kept in the snapshot");
  p.render(); // a later render reads the snapshot: still the server's program
  assert.deepEqual(p.filled(), ["S-red E", "M-blue S", "L-red up"]);
  p.piece("L-green").click();
  mock.timers.tick(DRAFT_DELAY_MS * 5);
  await flush();
  assert.deepEqual(p.sent, []);
  assert.deepEqual(p.filled(), ["S-red E", "M-blue S", "L-red up"]);
});

test("the seat events of this page's own Compile and Uncompile are no news: nothing is fetched", async () => {
  const snap = speedSnap();
  let p: ReturnType<typeof mountPanel> | null = null;
  // The seat_ready of the compile arrives while the move is still being answered.
  p = mountPanel(snap, (body) => { if ((body as { compiled?: boolean }).compiled) p?.panel.ownSeat(true); });
  p.render();
  p.piece("M-blue").click();
  p.byId("ram-compile")?.click();
  await flush();
  assert.equal(p.sent.at(-1)?.compiled, true);
  assert.equal(p.fetches, 0);
  p.byId("ram-uncompile")?.click();
  await flush();
  assert.equal(p.sent.at(-1)?.compiled, false);
  p.panel.ownSeat(false); // its seat_unready, after the answer
  p.render();
  assert.equal(p.fetches, 0);
  assert.deepEqual(p.filled(), ["M-blue N"]);
  // The next one is not mine: the phone compiled.
  p.panel.ownSeat(true);
  assert.equal(p.fetches, 1);
});

test("a new snapshot saying my program is compiled wins over what this page laid out", async (t) => {
  mock.timers.enable({ apis: ["setTimeout"] });
  t.after(() => mock.timers.reset());
  const p = mountPanel(speedSnap());
  p.render();
  p.piece("M-blue").click(); // a draft is due in 800 ms
  const server = speedSnap({ compiled: true, program: [{ piece: "L-green", dir: "W" }] });
  server.seats[0].ready = true;
  p.render(server);
  assert.deepEqual(p.filled(), ["L-green W"]);
  mock.timers.tick(DRAFT_DELAY_MS * 3);
  await flush();
  assert.deepEqual(p.sent, [], "the due draft is not sent over it");
});

test("spectators and ejected seats get one line, not a program card", () => {
  const spectator = speedSnap();
  spectator.me = null;
  const p = mountPanel(spectator);
  p.render();
  assert.ok(p.el.classList.contains("ram-watching"));
  const shown = (e: FakeElement | undefined) => !!e && !e.hidden;
  assert.equal(shown(p.el.find("ram-speedbots")), false, "no Speedbots note about saving an arrangement");
  assert.equal(p.el.all().find((e) => e.tagName === "H2")?.hidden, true, "no 'Your program' title");
  assert.equal(p.el.find("ram-placeholder")?.textContent, "You are watching this game.");
  assert.equal(p.el.dataset.mode, "none");

  const ejected = speedSnap();
  ejected.seats[0].ejected = true;
  const q = mountPanel(ejected);
  q.render();
  assert.ok(q.el.classList.contains("ram-watching"));
  assert.equal(shown(q.el.find("ram-speedbots")), false);
  assert.match(q.el.find("ram-placeholder")?.textContent ?? "", /watching/);

  // A seated player still has the card and the note.
  const r = mountPanel(speedSnap());
  r.render();
  assert.ok(!r.el.classList.contains("ram-watching"));
  assert.equal(shown(r.el.find("ram-speedbots")), true);
  assert.equal(r.el.dataset.mode, "program");
});

test("while a round plays, a log line waits for its whole instruction", () => {
  const events = ROUND2;
  const second = events.findIndex((e, i) => i > 0 && e.type === "instruction");
  // Only the first instruction's event has played: no "does nothing" for it.
  let lines = describePlayed(BEFORE as never, events, 1);
  assert.equal(lines.length, 1);
  assert.equal(lines[0].pending, true);
  assert.equal(lines[0].instruction, "small blue N");
  assert.doesNotMatch(lines[0].text, /does nothing/);
  // All of it has played: described in full.
  lines = describePlayed(BEFORE as never, events, second);
  assert.equal(lines.length, 1);
  assert.ok(!lines[0].pending);
  assert.equal(lines[0].text, describeTurn(cloneState(BEFORE), events)[0].text);
  // The RAM in Green's L-green N: mid-way, the line has not yet said "moves 1" alone.
  const last = events.findIndex((e) => e.type === "instruction" && (e as unknown as { piece: string }).piece === "L-green");
  lines = describePlayed(cloneState(BEFORE), events, last + 2);
  assert.equal(lines.at(-1)?.pending, true);
  assert.equal(lines.filter((l) => l.pending).length, 1);
  const full = describeTurn(cloneState(BEFORE), events);
  const done = describePlayed(cloneState(BEFORE), events, events.length);
  assert.deepEqual(done, full);
  assert.match(full.find((l) => l.instruction === "large green N")?.text ?? "", /RAMs Blue's bot, steals small blue/);
  // Every finished line mid-round reads as the finished round's.
  lines = describePlayed(cloneState(BEFORE), events, last + 2);
  lines.slice(0, -1).forEach((l, i) => assert.deepEqual(l, full[i]));
});

/** The goal step before every stack is built: the server counts no goals yet. */
function goalStep(revealed: unknown): ReturnType<typeof cloneState> {
  return cloneState({
    ...BEFORE, phase: "goals", round: 0, goals_revealed: revealed,
    players: BEFORE.players.map((p) => ({ ...p, goals: null, goal_top: null, goals_left: 0, tagged: 0, goals_built: p.id === "2" })),
  });
}

test("before the goal stacks are built nobody shows 'all tagged' or '0 left'", () => {
  const state = goalStep(false);
  const parent = new FakeElement("div");
  const board = new RamBoard(parent as unknown as HTMLElement);
  board.renderStacks(state, (id) => `P${id}`, () => "#dc2626", { id: "1", rambots: null });
  const stacks = board.stacks as unknown as FakeElement;
  const text = stacks.textContent;
  assert.doesNotMatch(text, /all tagged|0 left/);
  assert.match(text, /goal stack being built/);
  // Player 3's stack is made by player 2, who has built it.
  const rows = stacks.all().filter((e) => e.tagName === "LI" && e.dataset.player);
  assert.equal(rows.find((r) => r.dataset.player === "3")?.find("ram-goal-top")?.textContent, "goal stack built (hidden)");
  assert.equal(rows.find((r) => r.dataset.player === "1")?.find("ram-goal-top")?.textContent, "goal stack being built");
  // The seat list's words.
  assert.equal(seatGoalText(state, state.players[0], false), "building a goal stack");
  assert.equal(seatGoalText(state, state.players[1], false), "has built a goal stack");
  assert.equal(seatGoalText(goalStep(undefined), goalStep(undefined).players[0], true), "has built a goal stack");
  // The reveal: four goals left each, tops shown, and from then on the counts are real.
  applyRamEvent(state, { type: "goal_stacks_revealed", tops: { 1: "M-green", 2: "S-red", 3: "L-blue" } } as unknown as EngineEvent);
  assert.equal(state.goals_revealed, true);
  assert.deepEqual(state.players.map((p) => p.goals_left), [4, 4, 4]);
  assert.equal(seatGoalText(state, state.players[0], false), null);
  board.renderStacks(state, (id) => `P${id}`, () => "#dc2626", { id: "1", rambots: null });
  assert.match(stacks.textContent, /4 left/);
  state.players[0].goals_left = 0;
  assert.equal(seatGoalText(state, state.players[0], false), "all goals tagged");
});

test("Speedbots: a Compile pressed while a draft is on its way is sent after the draft's answer, never before", async (t) => {
  mock.timers.enable({ apis: ["setTimeout"] });
  t.after(() => mock.timers.reset());
  let release: () => void = () => undefined;
  const started: string[] = [];
  const p = mountPanel(speedSnap(), (body) => {
    const compiled = (body as { compiled?: boolean }).compiled;
    started.push(compiled ? "compile" : "draft");
    if (!compiled) return new Promise<void>((resolve) => { release = resolve; });  // the draft hangs on the wire
  });
  p.render();
  p.piece("M-blue").click();
  mock.timers.tick(DRAFT_DELAY_MS + 10);
  await flush();
  assert.deepEqual(started, ["draft"]);
  (p.byId("ram-compile") as FakeElement).click();
  await flush();
  assert.deepEqual(started, ["draft"], "the Compile waits for the draft's answer");
  release();
  await flush();
  await flush();
  assert.deepEqual(started, ["draft", "compile"]);
  assert.equal(p.sent[1].compiled, true);
});

test("board names keep a trailing number, so two computers of one strength stay apart", () => {
  assert.equal(shortName("ada"), "ada");
  assert.equal(shortName("Normal Computer 1"), "Normal 1");
  assert.equal(shortName("Easy Computer"), "Easy C.");
  assert.equal(shortName("bob_phone"), "bob_pho…");
  assert.equal(shortName("ada_ph"), "ada_ph");
  assert.notEqual(shortName("Normal Computer 1"), shortName("Normal Computer 2"));
  assert.equal(shortName("Normal Computer 12"), "Norma 12");
  assert.equal(shortName("ada_phone"), "ada_pho…");
});

test("a viewer the page has a note for (a replaced tournament player) reads it instead of the bare line", () => {
  assert.equal(watchingText("You were replaced by bob in this tournament (Spring Cup): they play your seat now."),
    "You were replaced by bob in this tournament (Spring Cup): they play your seat now.");
  assert.equal(watchingText(""), "You are watching this game.");
  assert.equal(watchingText(undefined), "You are watching this game.");
});
