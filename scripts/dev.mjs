// Development: the API with reload on :5001 (tsx watch) and Vite with hot reload on :5000.
import { spawn } from "node:child_process";

const apiPort = process.env.API_PORT ?? "5001";
const vitePort = process.env.PORT ?? "5000";
const children = [
  spawn("npx", ["tsx", "watch", "src/server/main.ts"], {
    stdio: "inherit",
    env: {
      // Links (share links, mail) point at the page people open in development: Vite's.
      APP_URL: `http://localhost:${vitePort}`,
      ...process.env,
      PORT: apiPort,
      HOST: "127.0.0.1",
      NODE_ENV: "development",
    },
  }),
  spawn("npx", ["vite", "--port", vitePort], {
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
