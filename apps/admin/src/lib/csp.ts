import { setNonce } from "get-nonce";

/**
 * The page runs under the server's Content-Security-Policy (decision 0038): scripts from this origin
 * only, no eval, and no inline style except `<style>` tags carrying this page load's nonce, which the
 * server writes into `<meta property="csp-nonce">`. Imported first, before anything can parse or render.
 */
export const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? "";

// zod's parsers are kept from `new Function` by public/zod-jitless.js, which runs before any module.
// react-remove-scroll (behind Mantine's modals and drawers) writes a <style> tag with the nonce set here.
if (styleNonce) setNonce(styleNonce);
