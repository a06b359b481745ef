// One project and its owner, as a self-hosted single-owner n8n has them: GET /projects,
// GET /users, GET /users/{id|email}, `shared` on workflows, the projectId filter, the
// transfer answers, and n8n's /healthz/readiness (issue 11, item 5).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/platform/http.js';
import { createLogger } from '../../src/platform/logger.js';
import { healthRoutes } from '../../src/services/workflow/http/health.js';
import { manualSetWorkflow, startWorkflowServer, wrap, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({
    env: {
      WORKFLOW_OWNER_EMAIL: 'ada@example.org',
      WORKFLOW_OWNER_FIRST_NAME: 'Ada',
      WORKFLOW_OWNER_LAST_NAME: 'Lovelace',
    },
  });
}, 60_000);
afterAll(() => s?.stop());

describe('projects and users', () => {
  test("GET /projects lists the owner's personal project, named as n8n names it", async () => {
    const r = await s.api('GET', '/projects');
    expect(r.status).toBe(200);
    expect(r.body.nextCursor).toBeNull();
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ name: 'Ada Lovelace <ada@example.org>', type: 'personal' });
    expect(r.body.data[0].id).toMatch(/^[0-9A-Za-z]{16}$/);
    expect((await s.api('GET', '/projects?limit=251')).body).toEqual({ message: 'request/query/limit must be <= 250' });
  });

  test('GET /users is the owner; GET /users/{id} and /users/{email} find them; role with includeRole', async () => {
    const list = await s.api('GET', '/users');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const owner = list.body.data[0];
    expect(owner).toMatchObject({ email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', isPending: false });
    expect(owner.role).toBeUndefined();
    expect((await s.api('GET', '/users?includeRole=true')).body.data[0].role).toBe('global:owner');
    expect((await s.api('GET', `/users/${owner.id}`)).body).toEqual(owner);
    expect((await s.api('GET', '/users/ADA@example.org?includeRole=true')).body).toEqual({
      ...owner,
      role: 'global:owner',
    });
    expect((await s.api('GET', '/users/nobody@example.org')).status).toBe(404);
    const project = (await s.api('GET', '/projects')).body.data[0];
    expect((await s.api('GET', `/users?projectId=${project.id}`)).body.data).toHaveLength(1);
    expect((await s.api('GET', '/users?projectId=elsewhere')).body.data).toEqual([]);
  });

  test('workflows carry shared as n8n fills it; the projectId filter works on workflows and executions', async () => {
    const project = (await s.api('GET', '/projects')).body.data[0];
    const c = await s.api('POST', '/workflows', manualSetWorkflow('shared'));
    const expected = [
      {
        role: 'workflow:owner',
        projectId: project.id,
        project: { id: project.id, name: project.name, type: 'personal' },
        createdAt: c.body.createdAt,
        updatedAt: c.body.updatedAt,
        workflowId: c.body.id,
      },
    ];
    expect(c.body.shared).toEqual(expected);
    expect((await s.api('GET', `/workflows/${c.body.id}`)).body.shared).toEqual(expected);
    const listed = (await s.api('GET', `/workflows?projectId=${project.id}`)).body.data.find(
      (w: any) => w.id === c.body.id,
    );
    expect(listed.shared).toEqual(expected);
    expect((await s.api('GET', '/workflows?projectId=another')).body.data).toEqual([]);
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
    expect((await s.api('GET', `/executions?projectId=${project.id}`)).body.data.map((x: any) => x.id)).toContain(
      e.body.id,
    );
    expect((await s.api('GET', '/executions?projectId=another')).body.data).toEqual([]);
  });

  test("create takes the owner's projectId; another project is 404, a folder 400", async () => {
    const project = (await s.api('GET', '/projects')).body.data[0];
    const ok = await s.api('POST', '/workflows', { ...manualSetWorkflow('placed'), projectId: project.id });
    expect(ok.status).toBe(200);
    expect(ok.body.shared[0].projectId).toBe(project.id);
    expect(
      (await s.api('POST', '/workflows', { ...manualSetWorkflow('elsewhere'), projectId: 'another' })).status,
    ).toBe(404);
    expect(
      (await s.api('POST', '/workflows', { ...manualSetWorkflow('foldered'), parentFolderId: 'f1' })).body,
    ).toEqual({ message: 'request/body/parentFolderId: this instance has no folders' });
  });

  test("a transfer to the owning project is n8n's 400, to an unknown project 404", async () => {
    const project = (await s.api('GET', '/projects')).body.data[0];
    const c = await s.api('POST', '/workflows', manualSetWorkflow('transfer'));
    const same = await s.api('PUT', `/workflows/${c.body.id}/transfer`, { destinationProjectId: project.id });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe("You can't transfer a workflow into the project that's already owning it.");
    expect((await s.api('PUT', `/workflows/${c.body.id}/transfer`, { destinationProjectId: 'nope' })).status).toBe(404);
    expect((await s.api('PUT', `/workflows/${c.body.id}/transfer`, {})).body).toEqual({
      message: "request/body must have required property 'destinationProjectId'",
    });
  });

  test('the owner and project keep their ids across a restart; a changed name is applied', async () => {
    const before = {
      user: (await s.api('GET', '/users')).body.data[0],
      project: (await s.api('GET', '/projects')).body.data[0],
    };
    await s.t.stop();
    const t = await s.t.restart({
      WORKFLOW_OWNER_EMAIL: 'ada@example.org',
      WORKFLOW_OWNER_FIRST_NAME: 'Augusta',
      WORKFLOW_OWNER_LAST_NAME: 'King',
    });
    s = await wrap(t, s.key);
    const user = (await s.api('GET', '/users')).body.data[0];
    const project = (await s.api('GET', '/projects')).body.data[0];
    expect(user.id).toBe(before.user.id);
    expect(user.firstName).toBe('Augusta');
    expect(project.id).toBe(before.project.id);
    expect(project.name).toBe('Augusta King <ada@example.org>');
  }, 60_000);
});

describe('health', () => {
  test('/healthz and /healthz/readiness answer {"status":"ok"} without a key', async () => {
    const live = await s.call('GET', '/healthz');
    expect(live.status).toBe(200);
    expect(live.body.status).toBe('ok');
    const ready = await s.call('GET', '/healthz/readiness');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok' });
  });

  test('readiness is 503 {"status":"error"} while the database does not answer', async () => {
    const app = await createApp(
      { logger: createLogger({ level: 'silent', pretty: false }) },
      { service: 'workflow', envelope: (e) => ({ message: e.message }) },
    );
    let up = false;
    healthRoutes(app, {
      ping: async () => {
        if (!up) throw new Error('connection refused');
        return true;
      },
    });
    const down = await app.inject({ method: 'GET', url: '/healthz/readiness' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'error' });
    up = true;
    expect((await app.inject({ method: 'GET', url: '/healthz/readiness' })).json()).toEqual({ status: 'ok' });
    await app.close();
  });
});
