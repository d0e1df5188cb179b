import { queryOptions, useQuery } from "@tanstack/react-query";
import { appInfoSchema } from "../../shared/schemas";
import { isLoopbackAddress } from "../../shared/share-links";
import { getJson } from "./api-client";

export const APP_INFO_PATH = "/api/app-info";

/** GET /api/app-info (app-wide: the footer, and the address links are built on). */
export const appInfoQueryOptions = () =>
  queryOptions({
    queryKey: ["app-info"],
    queryFn: () => getJson(APP_INFO_PATH, appInfoSchema),
  });

export function useAppInfo() {
  return useQuery(appInfoQueryOptions());
}

/**
 * The address share links and the memory book's codes are built on for this browser, while it
 * opens only on this computer (a loopback address); null otherwise or not yet known.
 */
export function useLoopbackLinkBase(): string | null {
  const base = useAppInfo().data?.linkBase;
  return base && isLoopbackAddress(base) ? base : null;
}
