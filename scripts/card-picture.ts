// `npx tsx scripts/card-picture.ts` (after `npm run build`): the picture of a fridge card in
// docs/storyteller-without-login.md, docs/images/recording-card.png. A real card: the built server
// makes a storyteller's recording link and prints its card, which pdftoppm (poppler-utils) renders.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ApiClient } from "../e2e/api-client";
import { startServer } from "../e2e/harness";
import type { Journal, Member } from "../src/shared/schemas";

const server = await startServer({ APP_URL: "https://journal.example.org" });
try {
  const organizer = new ApiClient(server.url);
  await organizer.register("ana");
  const [journal] = (await organizer.json<Journal[]>("GET", "/api/journals")).data;
  if (!journal) throw new Error("no journal");
  const base = `/api/journals/${journal.id}`;
  await organizer.request("PATCH", base, { name: "The Alvarez family" });
  const added = await organizer.json<Member>("POST", `${base}/members`, {
    name: "Grandma Rose",
    role: "storyteller",
  });
  if (added.status !== 201) throw new Error(`adding the storyteller failed: ${added.status}`);
  const member = `${base}/members/${added.data.id}`;
  const made = await organizer.request("POST", `${member}/recording-link`);
  if (made.status !== 201) throw new Error(`making the link failed: ${made.status}`);
  const card = await organizer.request("GET", `${member}/card.pdf`);
  if (card.status !== 200) throw new Error(`printing the card failed: ${card.status}`);
  const pdf = path.join(server.dataDir, "card.pdf");
  writeFileSync(pdf, Buffer.from(await card.arrayBuffer()));
  // 600 pixels wide, in grey: sharp enough to read, a few tens of kilobytes.
  const out = path.join("docs", "images", "recording-card");
  execFileSync("pdftoppm", [
    "-png",
    "-gray",
    "-scale-to-x",
    "600",
    "-scale-to-y",
    "-1",
    "-singlefile",
    pdf,
    out,
  ]);
} finally {
  await server.cleanup();
}
