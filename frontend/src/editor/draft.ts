// The editor's local copy of unsaved work (issue 17's user trial: a draft with errors can't be saved, and
// closing the tab lost it). The working course is kept in localStorage under a key per course slug (or
// "new"), written after changes (debounced by the editor), removed when a save succeeds; on opening, a copy
// that differs from the loaded course is offered, never restored silently. The pure parts live here.
import type { EditorCourse } from "./model";

export const DRAFT_PREFIX = "roboracer.editor.draft.";
/** What is stored: the course as the editor holds it, and when it was written (ms since the epoch). */
export interface Draft { v: 1; at: number; course: EditorCourse }

/** The key of a course's local copy: its slug, or "new" for a course not saved yet. */
export function draftKey(slug: string | null | undefined): string {
  return DRAFT_PREFIX + (slug ? slug : "new");
}

export function makeDraft(course: EditorCourse, at: number): Draft {
  return { v: 1, at, course };
}

/** A stored copy read back, or null when there is none or it is not one of ours (never an exception). */
export function readDraft(text: string | null): Draft | null {
  if (!text) return null;
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return null;
  }
  if (!d || typeof d !== "object") return null;
  const o = d as Record<string, unknown>;
  const c = o.course as Record<string, unknown> | null;
  if (o.v !== 1 || typeof o.at !== "number" || !Number.isFinite(o.at) || !c || typeof c !== "object" || Array.isArray(c)) return null;
  if (!Array.isArray(c.elements) || typeof c.width !== "number" || typeof c.height !== "number") return null;
  return { v: 1, at: o.at, course: c as unknown as EditorCourse };
}

/** JSON with the keys of every object sorted, so two courses compare equal whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Whether a local copy is worth offering: it holds a course other than the one the page loaded. */
export function differs(draft: Draft | null, loaded: EditorCourse): boolean {
  return draft !== null && canonical(draft.course) !== canonical(loaded);
}

/** "Restore your unsaved changes from <time>?": the time alone when it is today, else the date too. */
export function offerText(at: number, now: number): string {
  const d = new Date(at), n = new Date(now);
  const two = (x: number) => String(x).padStart(2, "0");
  const time = `${two(d.getHours())}:${two(d.getMinutes())}`;
  const sameDay = d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate();
  const when = sameDay ? time : `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${time}`;
  return `Restore your unsaved changes from ${when}?`;
}

/** The part of Storage used here (localStorage, or a stand-in in tests). */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** localStorage if the browser lets the page use it (it may be missing, or throw in a private window). */
export function browserStorage(): DraftStorage | null {
  try {
    const s = globalThis.localStorage;
    return s ?? null;
  } catch {
    return null;
  }
}

/** Writes and removals that never throw: a full or refused storage only means no local copy. */
export function storeDraft(storage: DraftStorage | null, key: string, draft: Draft): boolean {
  try {
    storage?.setItem(key, JSON.stringify(draft));
    return !!storage;
  } catch {
    return false;
  }
}

export function loadDraft(storage: DraftStorage | null, key: string): Draft | null {
  try {
    return readDraft(storage?.getItem(key) ?? null);
  } catch {
    return null;
  }
}

export function dropDraft(storage: DraftStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // nothing to do: the copy stays, and is offered only if it differs from the course
  }
}
