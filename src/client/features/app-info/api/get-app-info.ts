import { queryOptions, useQuery } from "@tanstack/react-query";
import { appInfoSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";

export const APP_INFO_PATH = "/api/app-info";

/** GET /api/app-info. */
export const appInfoQueryOptions = () =>
  queryOptions({
    queryKey: ["app-info"],
    queryFn: () => getJson(APP_INFO_PATH, appInfoSchema),
  });

export function useAppInfo() {
  return useQuery(appInfoQueryOptions());
}
