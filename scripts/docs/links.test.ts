import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  anchors,
  checkMarkdownLinks,
  extractLinks,
  slug,
  workingTree,
  type Repository,
} from "./markdown-links.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A repository held in memory: path → text. */
const inMemory = (files: Record<string, string>): Repository => ({
  files: new Set(Object.keys(files)),
  read: (path) => files[path]!,
});

describe("Markdown links", () => {
  it("every link of every Markdown file in the repository leads to a file, folder or heading inside it", () => {
    const tree = workingTree(root);
    expect([...tree.files].filter((f) => f.endsWith(".md")).length).toBeGreaterThan(40);
    const problems = checkMarkdownLinks(tree).map((p) => `${p.file}:${p.line}: ${p.target}: ${p.problem}`);
    expect(problems).toEqual([]);
  });

  it("refuses a link that leaves the repository, a missing file, a missing heading and a file: URL", () => {
    const repo = inMemory({
      "README.md": [
        "# Title",
        "See [the spec](../shared/spec/licensing-service.md) and [gone](docs/gone.md).",
        "![shot](docs/screenshots/missing.png) [anchor](docs/a.md#no-such-heading)",
        "[local](file:///work/shared/ARCHITECTURE.md) [root escape](/../x.md)",
        "[ref]: ../outside.md",
        '<img src="docs/nope.png">',
      ].join("\n"),
      "docs/a.md": "# A\n\n## Some heading\n",
    });
    expect(checkMarkdownLinks(repo).map((p) => `${p.line} ${p.target}: ${p.problem}`)).toEqual([
      "2 ../shared/spec/licensing-service.md: the link leaves the repository",
      "2 docs/gone.md: docs/gone.md does not exist",
      "3 docs/screenshots/missing.png: docs/screenshots/missing.png does not exist",
      "3 docs/a.md#no-such-heading: docs/a.md has no heading #no-such-heading",
      "4 file:///work/shared/ARCHITECTURE.md: a link with this scheme leaves the repository",
      "4 /../x.md: the link leaves the repository",
      "5 ../outside.md: the link leaves the repository",
      "6 docs/nope.png: docs/nope.png does not exist",
    ]);
  });

  it("accepts files, folders, headings, repository-root paths and web links, and ignores code", () => {
    const repo = inMemory({
      "docs/guide.md": [
        "# Guide",
        "## Where the service departs from the specification's wording",
        "## Step `one`: set up",
        "## Step `one`: set up",
        "[a](../README.md) [b](decisions/) [c](#step-one-set-up-1) [d](/docs/decisions/0001-x.md)",
        "[e](#where-the-service-departs-from-the-specifications-wording) [f](https://example.com/x)",
        "[g](../README.md#title) <https://example.com> `[h](../../outside.md)`",
        "```md",
        "[i](../../outside.md)",
        "```",
      ].join("\n"),
      "docs/decisions/0001-x.md": "# X\n",
      "README.md": "# Title\n",
    });
    expect(checkMarkdownLinks(repo)).toEqual([]);
  });

  it("finds link destinations and heading anchors as GitHub renders them", () => {
    expect(
      extractLinks('[a](x.md "title") [![img](i.png)](y.md#z)\n[r]: <r.md>').map((l) => l.target),
    ).toEqual(["x.md", "i.png", "y.md#z", "r.md"]);
    expect(slug("0039. One declaration per operation: REST first")).toBe(
      "0039-one-declaration-per-operation-rest-first",
    );
    expect(slug("Client library (`@licensing/client`)")).toBe("client-library-licensingclient");
    expect([...anchors("# A\n# A\n## B [link](x)\n")]).toEqual(["a", "a-1", "b-link"]);
  });
});
