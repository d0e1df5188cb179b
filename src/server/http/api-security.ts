import { SESSION_COOKIE } from "../auth/session.service";

/** The OpenAPI security scheme of the logged-in session: the session cookie. */
export const SESSION_SCHEME = "sessionCookie";

export const sessionSecurityScheme = {
  type: "apiKey",
  in: "cookie",
  name: SESSION_COOKIE,
  description:
    "The session cookie POST /api/login and POST /api/register set. Send back every cookie the server sets: the visitor cookie (vmj_visitor) lets a browser claim what it recorded before logging in, and a share link's cookie (vmj_share) shows the memories it shares.",
} as const;

/**
 * Who may call an operation, as its route schema's `security`: each entry of the list is one way
 * to be allowed, and the empty one means without any cookie.
 */
type SecurityRequirements = { [scheme: string]: string[] }[];

export const security: Record<"session" | "optionalSession" | "none", SecurityRequirements> = {
  /** A logged-in session; 401 without one. */
  session: [{ [SESSION_SCHEME]: [] }],
  /** Anyone; a session changes what the answer holds or what may be changed (its owner's). */
  optionalSession: [{}, { [SESSION_SCHEME]: [] }],
  /** Anyone, the same with or without a session (a token in the request may be what counts). */
  none: [],
};
