import { useQuery } from "@tanstack/react-query";
import type { AppInfo } from "../../../../shared/schemas";

export const APP_INFO_PATH = "/api/app-info";

export function useAppInfo(enabled = true) {
  return useQuery<AppInfo>({ queryKey: [APP_INFO_PATH], enabled });
}
