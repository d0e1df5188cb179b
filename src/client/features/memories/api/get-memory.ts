import { useQuery } from "@tanstack/react-query";
import type { Memory } from "../../../../shared/schemas";
import { memoryUrl } from "./memory-keys";

export function useMemory(id: string) {
  return useQuery<Memory>({ queryKey: [memoryUrl(id)] });
}
