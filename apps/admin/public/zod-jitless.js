// Loaded before the app's modules (index.html). zod decides, as each schema is built, whether to compile
// its parser with `new Function`, and even its probe is a violation of the page's CSP (no eval, decision
// 0038). The app's modules build schemas before any of its own code could run, so the setting lives here,
// where zod reads it (its global config), and no schema is built without it.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
