import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { registerAppUpdate } from "./features/app-update/register-app-update";
import { embeddedSessionUser } from "./features/auth/api/get-user";
import { seedEmbeddedMemory } from "./features/memories/api/get-memory";
import "./index.css";
import { pageLanguage, speak } from "./lib/language";
import { deviceStorage, LastSeen } from "./lib/last-seen";
import { createQueryClient } from "./lib/query-client";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
const queryClient = createQueryClient();
seedEmbeddedMemory(queryClient);
// Offline, the installed app opens from its cached shell, which holds no user: the account and the
// memories this device saw last stand in until the connection returns.
const lastSeen = new LastSeen(deviceStorage());
const pageUser = embeddedSessionUser();
if (pageUser === null) lastSeen.forget();
else if (pageUser === undefined && !navigator.onLine) lastSeen.restore(queryClient);
lastSeen.keep(queryClient);
// The page's words arrive before it renders (a chunk for a language other than English). Not a
// top-level await: that would split the first download into dozens of chunks.
void speak(pageLanguage(pageUser)).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
registerAppUpdate(createRoot);
