// The OAuth redirect page's script: hands the callback URL back to the opener.
export { authorizationCallback } from "mcpwasm";
