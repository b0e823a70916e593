/** A real nginx (Debian's package) in front of the instances, on a loopback port, with a config the test writes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NGINX_PATH = '/usr/sbin/nginx';

/** Whether nginx is installed; in CI its absence is a failure, not a skip. */
export function nginxAvailable(): boolean {
  if (existsSync(NGINX_PATH)) return true;
  if (process.env.CI) throw new Error(`CI requires nginx at ${NGINX_PATH} (apt-get install -y nginx)`);
  console.warn(`nginx is not installed at ${NGINX_PATH}: the multi-instance tests are skipped (apt-get install -y nginx)`);
  return false;
}

/** Starts nginx on `port`, spreading requests round-robin over `upstreams` and setting X-Forwarded-For. */
export function startNginx(dir: string, port: number, upstreams: number[]): Promise<{ url: string; stop(): Promise<void> }> {
  return runNginx(
    dir,
    `
  upstream lead_intake {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 64k;
    location / {
      proxy_pass http://lead_intake;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }`,
    `http://127.0.0.1:${port}/api/v1`,
  );
}

/**
 * Runs nginx in the foreground with `servers` (server blocks, or an `include`) inside an `http`
 * block of the test's own (pid, logs and temporary files under `dir`), once `probe` answers.
 */
export async function runNginx(
  dir: string,
  servers: string,
  probe: string,
  ready: (url: string) => Promise<boolean> = (url) =>
    fetch(url).then(
      (r) => r.ok,
      () => false,
    ),
): Promise<{ url: string; stop(): Promise<void> }> {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${servers}
}
`,
  );
  const child: ChildProcess = spawn(NGINX_PATH, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  // Ready within a minute, or the tests after it would meet refusals and 502s that are not theirs.
  for (let i = 0; !(await ready(probe)); i++) {
    if (i > 600) throw new Error(`nginx was not ready within a minute (${conf})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: new URL(probe).origin,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
