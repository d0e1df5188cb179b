import { useUser } from "../../auth/api/get-user";
import { OwnMemories } from "./own-memories";

/** Home, logged in: the memory book, Backup Memories, the search box and 'Recent Memories' (nothing when logged out). */
export function HomeMemories() {
  const { data: user } = useUser();
  return user ? <OwnMemories /> : null;
}
