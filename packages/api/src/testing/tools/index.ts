// The tools tests need beyond `npm install`, and the rule for a missing one (decision 0045): skip with one
// line that says how to enable the suite, or fail when REQUIRE_BROWSER / REQUIRE_TOOLS asks for it.
export { BROWSER_COMMANDS, BROWSER_VARIABLES, findBrowser, installedBrowserPaths } from "./browser.ts";
export { tools, type RequiredBy, type Tool } from "./catalogue.ts";
export { findOnPath, isExecutable, type Lookup } from "./executables.ts";
export { isRequired, needTool, SKIP_LINE } from "./need-tool.ts";
export { findPostgresBinDir } from "./postgres.ts";
