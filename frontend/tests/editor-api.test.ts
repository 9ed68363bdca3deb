// Unit checks of what the editor reads from the API's answers: validator problems (each with its squares,
// malformed entries dropped) and the URLs of a course saved from /courses/new/.
import assert from "node:assert/strict";
import { test } from "node:test";
import { problems, urlsFor } from "../src/editor/api";

test("problems keep each message with its squares and drop what is malformed", () => {
  const v = problems({
    errors: [{ message: "elements[3] (belt): 'speed' must be one of 1, 2, 3, 5, got 4", squares: [[2, 3]] }, { nope: 1 }],
    warnings: [{ message: "a start in a laser's line", squares: [[0, 0], [1, 0], "x", [1]] }, { message: "no squares" }],
  });
  assert.deepEqual(v.errors, [{ message: "elements[3] (belt): 'speed' must be one of 1, 2, 3, 5, got 4", squares: [[2, 3]] }]);
  assert.deepEqual(v.warnings, [
    { message: "a start in a laser's line", squares: [[0, 0], [1, 0]] },
    { message: "no squares", squares: [] },
  ]);
  // a refused save (400) carries detail, errors and warnings; anything else gives empty lists
  assert.deepEqual(problems({ detail: "bad", errors: [] }), { errors: [], warnings: [] });
  assert.deepEqual(problems(null), { errors: [], warnings: [] });
});

test("a course saved from the new-course page gets its detail, transition, test-drive, versions and comments URLs", () => {
  const urls = urlsFor({
    validate: "/api/courses/validate/", create: "/api/courses/", detail: null, transition: null, test_drive: null, versions: null,
    comments: null,
  }, "my yard");
  assert.deepEqual(urls, {
    validate: "/api/courses/validate/", create: "/api/courses/", detail: "/api/courses/my%20yard/",
    transition: "/api/courses/my%20yard/transition/", test_drive: "/api/courses/my%20yard/test-drive/",
    versions: "/api/courses/my%20yard/versions/", comments: "/api/courses/my%20yard/comments/",
  });
});
