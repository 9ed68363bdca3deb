// The editor's requests: JSON over the site's session with Django's CSRF header (as net.ts does),
// answering the whole JSON body either way, since a refused course brings its validator messages.
import { getCookie } from "../net";
import type { EditorCourse } from "./model";

export interface Problem { message: string; squares: [number, number][] }
export interface Validation { errors: Problem[]; warnings: Problem[] }

export interface Transition { from: string; to: string; by: string | null; reason: string; at: string }
export interface CourseDetail {
  slug: string;
  name: string;
  state: string;
  version: number;
  lineage: string;
  editable: boolean;
  can: string[];
  history: Transition[];
  data: EditorCourse;
  [key: string]: unknown;
}

export interface EditorUrls {
  validate: string;
  create: string;
  detail: string | null;
  transition: string | null;
  test_drive: string | null;
  versions: string | null;
  comments: string | null;
}

export type Answer<T> = { ok: true; status: number; data: T } | { ok: false; status: number; detail: string; body: Record<string, unknown> };

function csrfToken(): string {
  const input = document.querySelector<HTMLInputElement>("input[name=csrfmiddlewaretoken]");
  return getCookie("csrftoken") ?? input?.value ?? "";
}

export async function send<T>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, detail: "The server could not be reached.", body: {} };
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (res.ok) return { ok: true, status: res.status, data: data as T };
  const obj = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
  const detail = typeof obj.detail === "string" ? obj.detail : `The request failed (${res.status}).`;
  return { ok: false, status: res.status, detail, body: obj };
}

/** Problems from an answer body (a validation, or a refused save), each with a list of squares. */
export function problems(body: unknown): Validation {
  const list = (v: unknown): Problem[] => (Array.isArray(v) ? v : [])
    .filter((p) => p && typeof p === "object" && typeof (p as Problem).message === "string")
    .map((p) => ({
      message: (p as Problem).message,
      squares: (Array.isArray((p as Problem).squares) ? (p as Problem).squares : [])
        .filter((s) => Array.isArray(s) && s.length === 2 && s.every((n) => typeof n === "number")),
    }));
  const b = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  return { errors: list(b.errors), warnings: list(b.warnings) };
}

/** The URLs of a saved course, from the collection URL and its slug (when the page had none). */
export function urlsFor(urls: EditorUrls, slug: string): EditorUrls {
  const detail = `${urls.create.replace(/\/?$/, "/")}${encodeURIComponent(slug)}/`;
  return { ...urls, detail, transition: `${detail}transition/`, test_drive: `${detail}test-drive/`, versions: `${detail}versions/`,
    comments: `${detail}comments/` };
}
