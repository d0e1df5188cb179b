import { useUser } from "../../auth/api/get-user";
import { JournalMemories } from "./journal-memories";

/** Home, logged in: the open journal's memories (see JournalMemories); nothing when logged out. */
export function HomeMemories() {
  const { data: user } = useUser();
  return user ? <JournalMemories /> : null;
}
