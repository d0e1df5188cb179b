import { expect } from "vitest";
import type { Member } from "../../shared/schemas";
import type { TestUser } from "./auth-helpers";
import type { TestApp } from "./harness";
import type { SmtpSink } from "./smtp-sink";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A request to the app as a person (their user, or a cookie header), or as nobody. */
export function request(
  t: TestApp,
  method: Method,
  url: string,
  as?: TestUser | string,
  body?: object,
) {
  const cookie = typeof as === "string" ? as : as?.cookie;
  return t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(body ? { payload: body } : {}),
  });
}

/**
 * An organizer adds `name` to the journal at `email`, and `who` joins through the invitation the
 * sink received. Returns the new member's id.
 */
export async function joinJournal(
  t: TestApp,
  sink: SmtpSink,
  invited: {
    journal: string;
    organizer: TestUser;
    who: TestUser;
    name: string;
    role: Member["role"];
    email: string;
  },
): Promise<string> {
  const { journal, organizer, who, name, role, email } = invited;
  const added = await request(t, "POST", `/api/journals/${journal}/members`, organizer, {
    name,
    role,
    email,
  });
  expect(added.statusCode).toBe(201);
  const mail = await sink.waitFor((m) => m.to.includes(email));
  const token = /\/join\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
  expect((await request(t, "POST", `/api/invitations/${token}`, who)).statusCode).toBe(200);
  return added.json<Member>().id;
}

/** The path of a member's recording link, as its organizer makes, shows and stops it. */
export const recordingLinkPath = (journal: string, memberId: string) =>
  `/api/journals/${journal}/members/${memberId}/recording-link`;

/** The token at the end of a recording link's address. */
export const linkTokenOf = (url: string) => /\/r\/([A-Za-z0-9_-]+)$/.exec(url)?.[1] ?? "";

/** An organizer makes a member's recording link; returns its token. */
export async function makeRecordingLink(
  t: TestApp,
  journal: string,
  organizer: TestUser,
  memberId: string,
): Promise<string> {
  const made = await request(t, "POST", recordingLinkPath(journal, memberId), organizer);
  expect(made.statusCode).toBe(201);
  return linkTokenOf(made.json<{ url: string }>().url);
}
