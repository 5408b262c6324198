/**
 * Checks the relative links of the repository's Markdown files: each must lead to a file or folder inside
 * the repository that exists, and a `#fragment` into a Markdown file to one of its headings. Links with a
 * web scheme (http, https, mailto) are not followed; any other scheme (file:) leaves the repository.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { posix } from "node:path";

/** What the checker may look at: the repository's files by path from its root (POSIX separators). */
export interface Repository {
  /** Every file, tracked or new but not ignored. */
  files: ReadonlySet<string>;
  read(path: string): string;
}

export interface Link {
  line: number;
  target: string;
}

export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  problem: string;
}

const WEB = /^(https?|mailto):/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The lines of a Markdown text with fenced code blocks blanked out, and inline code spans removed (links
 * are not looked for in code) or kept (a heading's anchor is made from its text, code included).
 */
function proseLines(markdown: string, codeSpans: "drop" | "keep"): string[] {
  let fence: string | null = null;
  return markdown.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return "";
    }
    if (marker) {
      fence = marker;
      return "";
    }
    return codeSpans === "keep" ? line : line.replace(/(`+)(?:(?!\1).)+?\1/g, "");
  });
}

/** Every link and image destination in a Markdown text: inline, reference definitions, HTML href/src. */
export function extractLinks(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown, "drop").forEach((text, index) => {
    const line = index + 1;
    for (const m of text.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      links.push({ line, target: m[1]!.replace(/^<|>$/g, "") });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
    if (definition) links.push({ line, target: definition[1]!.replace(/^<|>$/g, "") });
    for (const m of text.matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/gi)) links.push({ line, target: m[1]! });
  });
  return links;
}

/** The anchor GitHub gives a heading's text (github-slugger): lower case, punctuation dropped, spaces to `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (numbered when repeated) and HTML ids. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown, "keep")) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const m of line.matchAll(/\b(?:id|name)\s*=\s*"([^"]+)"/gi)) found.add(m[1]!);
  }
  return found;
}

const isFolder = (repo: Repository, path: string) => {
  const prefix = path === "" ? "" : `${path}/`;
  for (const file of repo.files) if (file.startsWith(prefix)) return true;
  return false;
};

/** What is wrong with one link of `file` (a path from the repository root), or null. */
export function checkLink(repo: Repository, file: string, target: string): string | null {
  if (WEB.test(target) || target.startsWith("//")) return null;
  if (SCHEME.test(target)) return "a link with this scheme leaves the repository";
  const hash = target.indexOf("#");
  const rawPath = hash < 0 ? target : target.slice(0, hash);
  const fragment = hash < 0 ? null : target.slice(hash + 1);
  let path: string;
  try {
    path = decodeURIComponent(rawPath.split("?")[0]!);
  } catch {
    return "the path is not valid percent-encoding";
  }
  const resolved =
    path === ""
      ? file
      : posix.normalize(path.startsWith("/") ? path.slice(1) : posix.join(posix.dirname(file), path));
  const inside = resolved.replace(/\/+$/, "").replace(/^\.$/, "");
  if (inside === ".." || inside.startsWith("../") || posix.isAbsolute(inside)) {
    return "the link leaves the repository";
  }
  if (!repo.files.has(inside) && !isFolder(repo, inside)) return `${inside} does not exist`;
  if (fragment && inside.endsWith(".md") && repo.files.has(inside)) {
    if (!anchors(repo.read(inside)).has(decodeURIComponent(fragment))) {
      return `${inside} has no heading #${fragment}`;
    }
  }
  return null;
}

/** Every broken link of the repository's Markdown files. */
export function checkMarkdownLinks(repo: Repository): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const file of [...repo.files].filter((f) => f.endsWith(".md")).sort()) {
    for (const { line, target } of extractLinks(repo.read(file))) {
      const problem = checkLink(repo, file, target);
      if (problem) problems.push({ file, line, target, problem });
    }
  }
  return problems;
}

/** The working tree at `root`: tracked files, and new ones git does not ignore (deleted ones left out). */
export function workingTree(root: string): Repository {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = new Set(listed.split("\0").filter((f) => f && existsSync(posix.join(root, f))));
  return { files, read: (path) => readFileSync(posix.join(root, path), "utf8") };
}
