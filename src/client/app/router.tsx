import { usePrefetchQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { MESSAGES } from "../../shared/messages";
import { CLIENT_ROUTES } from "../../shared/routes";
import { NotFound } from "../components/not-found";
import { PageLoading } from "../components/ui/page-loading";
import { memoryQueryOptions } from "../features/memories/api/get-memory";
import { MemoryPreview } from "../features/memories/components/memory-preview";
import { Layout } from "./layout";
import { HomePage } from "./routes/home-page";

// The memory page is opened from a list or a shared link: kept out of the first download. Opened
// from a link, the memory's preview shows while its code loads (ADR 0035).
const MemoryScreen = lazy(() =>
  import("./memory-screen").then((m) => ({ default: m.MemoryScreen })),
);

// Profiles are opened from a shared link or the user menu: kept out of the home page's download.
const ProfilePage = lazy(() =>
  import("./routes/profile-page").then((m) => ({ default: m.ProfilePage })),
);
const ResetPasswordPage = lazy(() =>
  import("../features/auth/components/reset-password-page").then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
// Opened from the user menu now and then: kept out of the first download.
const AccountPage = lazy(() =>
  import("./routes/account-page").then((m) => ({
    default: m.AccountPage,
  })),
);
// Opened from a reminder mail's unsubscribe link only.
const UnsubscribePage = lazy(() =>
  import("../features/reminders/components/unsubscribe-page").then((m) => ({
    default: m.UnsubscribePage,
  })),
);
// The family's members, opened from the user menu; an invitation, opened from its mail.
const FamilyPage = lazy(() =>
  import("./routes/family-page").then((m) => ({ default: m.FamilyPage })),
);
const JoinPage = lazy(() => import("./routes/join-page").then((m) => ({ default: m.JoinPage })));
// Opened from a storyteller's recording link or fridge card only.
const RecordingLinkPage = lazy(() =>
  import("./routes/recording-link-page").then((m) => ({ default: m.RecordingLinkPage })),
);
const WatchPage = lazy(() => import("./routes/watch-page").then((m) => ({ default: m.WatchPage })));

function MemoryRoute({ id }: { id: string }) {
  // Takes the memory the page carries, or asks for it while the page's code loads rather than after
  // it (one round trip less before the transcript paints).
  usePrefetchQuery(memoryQueryOptions(id));
  return (
    <Suspense fallback={<MemoryPreview id={id} />}>
      <MemoryScreen id={id} />
    </Suspense>
  );
}

/** The screens of CLIENT_ROUTES (src/shared/routes.ts), which the server also knows. */
export function AppRouter() {
  return (
    <Switch>
      <Route path={CLIENT_ROUTES.watch}>
        <Suspense fallback={<PageLoading />}>
          <WatchPage />
        </Suspense>
      </Route>
      {/* A storyteller's own page: no top bar, nothing else of the journal (ADR 0060). */}
      <Route path={CLIENT_ROUTES.recordingLink}>
        {(params) => (
          <Suspense fallback={<PageLoading />}>
            <RecordingLinkPage token={params.token} />
          </Suspense>
        )}
      </Route>
      <Route>
        <Layout>
          <Switch>
            <Route path={CLIENT_ROUTES.home} component={HomePage} />
            <Route path={CLIENT_ROUTES.memory}>{(params) => <MemoryRoute id={params.id} />}</Route>
            <Route path={CLIENT_ROUTES.resetPassword}>
              <Suspense fallback={<PageLoading />}>
                <ResetPasswordPage />
              </Suspense>
            </Route>
            <Route path={CLIENT_ROUTES.account}>
              <Suspense fallback={<PageLoading />}>
                <AccountPage />
              </Suspense>
            </Route>
            <Route path={CLIENT_ROUTES.family}>
              <Suspense fallback={<PageLoading />}>
                <FamilyPage />
              </Suspense>
            </Route>
            <Route path={CLIENT_ROUTES.join}>
              {(params) => (
                <Suspense fallback={<PageLoading />}>
                  <JoinPage token={params.token} />
                </Suspense>
              )}
            </Route>
            <Route path={CLIENT_ROUTES.unsubscribe}>
              <Suspense fallback={<PageLoading />}>
                <UnsubscribePage />
              </Suspense>
            </Route>
            {/* A share link the server did not redirect: wrong or revoked, shown like a missing profile. */}
            <Route path={CLIENT_ROUTES.shareLink}>
              <NotFound message={MESSAGES.profileNotFound} title={MESSAGES.profileNotFound} />
            </Route>
            <Route path={CLIENT_ROUTES.profile}>
              {(params) => (
                <Suspense fallback={<PageLoading />}>
                  <ProfilePage username={params.username} />
                </Suspense>
              )}
            </Route>
            {/* Paths outside CLIENT_ROUTES: the server answered them with 404 too. */}
            <Route>
              <NotFound />
            </Route>
          </Switch>
        </Layout>
      </Route>
    </Switch>
  );
}
