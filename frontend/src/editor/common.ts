// The course editor's shared words and constants (editor.ts and its parts: state.ts, io.ts, input.ts).
import type { CourseDetail, EditorUrls } from "./api";
import type { Catalog } from "./model";
import { label } from "./fields";

export interface EditorInit {
  course: CourseDetail | null;
  catalog: Catalog;
  urls: EditorUrls;
  user: { name: string; staff: boolean; reviewer: boolean };
}

export const SELECT = "select", ERASE = "erase";
/** Keys of the editor's own tools and commands; element tools get the others (model.shortcuts). */
export const RESERVED = ["s", "x", "r", "R", ".", "?"];
export const VALIDATE_DELAY = 500;
/** How long after the last change the local copy is written (editor/draft.ts). */
export const DRAFT_DELAY = 400;
export const STATE_WORDS: Record<string, string> = {
  private: "Private: only you (and staff) see it",
  development: "Development: anyone may play it in unrated games",
  review: "Review: waiting for a reviewer",
  stable: "Stable: in the lobby and the gallery; a change makes a new version",
};

export const STATE_NAMES: Record<string, string> = {
  private: "private", development: "in development", review: "in review", stable: "stable",
};

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable;
}

export const ARROWS: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

export function keyName(key: string): string {
  if (!key) return "";
  return /[A-Z]/.test(key) ? `Shift+${key}` : key.toUpperCase();
}

export function layerName(layer: string): string {
  const names: Record<string, string> = {
    tile: "Floor tiles", marker: "Markers", ceiling: "Ceiling", cover: "Covers", liquid: "Liquids", mount: "Mounted on a side", edge: "Edges and walls",
  };
  return names[layer] ?? label(layer);
}

export function transitionText(from: string, to: string): string {
  if (to === "stable") return "Approve (make stable)";
  if (to === "review") return "Submit for review";
  if (from === "review") return `Back to ${to} (withdraw or send back)`;
  if (from === "stable") return "Retire to development";
  if (to === "development") return "Open for development (unrated games)";
  if (to === "private") return "Make private";
  return `Move to ${to}`;
}

export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
