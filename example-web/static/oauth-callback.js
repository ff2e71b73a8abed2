// The OAuth redirect URI of the example page: hands the authorization
// response to the page that opened the sign-in popup (and closes), or —
// when the sign-in took the whole page because the popup was blocked —
// goes back to the app with the callback URL so it can finish connecting.
import { authorizationCallback } from "/mcpwasm/src/index.js";

const url = await authorizationCallback();
if (url) location.replace(`/?oauth-callback=${encodeURIComponent(url)}`);
