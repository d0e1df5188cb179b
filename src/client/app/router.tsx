import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { PageLoading } from "../components/ui/page-loading";
import { HomePage } from "../features/home/components/home-page";
import { ProfilePage } from "../features/profiles/components/profile-page";
import { Layout } from "./layout";
import { NotFoundPage } from "./not-found-page";

// The memory page is opened from a list or a shared link: kept out of the first download.
const MemoryPage = lazy(() =>
  import("../features/memories/components/memory-page").then((m) => ({ default: m.MemoryPage })),
);

const ResetPasswordPage = lazy(() =>
  import("../features/auth/components/reset-password-page").then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
// Opened from the user menu now and then: kept out of the first download.
const AccountPage = lazy(() =>
  import("../features/account/components/account-page").then((m) => ({
    default: m.AccountPage,
  })),
);
const WatchPage = lazy(() =>
  import("../features/watch/components/watch-page").then((m) => ({ default: m.WatchPage })),
);

export function AppRouter() {
  return (
    <Switch>
      <Route path="/watch">
        <Suspense fallback={<PageLoading />}>
          <WatchPage />
        </Suspense>
      </Route>
      <Route>
        <Layout>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/memory/:id">
              {(params) => (
                <Suspense fallback={<PageLoading />}>
                  <MemoryPage id={params.id} />
                </Suspense>
              )}
            </Route>
            <Route path="/reset-password">
              <Suspense fallback={<PageLoading />}>
                <ResetPasswordPage />
              </Suspense>
            </Route>
            <Route path="/account">
              <Suspense fallback={<PageLoading />}>
                <AccountPage />
              </Suspense>
            </Route>
            <Route path="/profile/:username">
              {(params) => <ProfilePage username={params.username} />}
            </Route>
            <Route component={NotFoundPage} />
          </Switch>
        </Layout>
      </Route>
    </Switch>
  );
}
