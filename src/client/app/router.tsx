import { Route, Switch } from "wouter";
import { ResetPasswordPage } from "../features/auth/components/reset-password-page";
import { HomePage } from "../features/home/components/home-page";
import { MemoryPage } from "../features/memories/components/memory-page";
import { ProfilePage } from "../features/profiles/components/profile-page";
import { WatchPage } from "../features/watch/components/watch-page";
import { Layout } from "./layout";
import { NotFoundPage } from "./not-found-page";

export function AppRouter() {
  return (
    <Switch>
      <Route path="/watch" component={WatchPage} />
      <Route>
        <Layout>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/memory/:id">{(params) => <MemoryPage id={params.id} />}</Route>
            <Route path="/reset-password" component={ResetPasswordPage} />
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
