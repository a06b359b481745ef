// persistent_notification: notifications shown in the frontend until dismissed. Since HA
// 2023.6 they are not entities: clients list them with `persistent_notification/get` or
// follow them with `persistent_notification/subscribe` ({type: current|added|removed|updated,
// notifications}); the bus carries `persistent_notifications_updated`. Like HA, they live in
// memory and do not survive a restart.
import { required, str } from '../core/fields.js';
import type { Home } from '../core/home.js';
import { isoUs } from '../core/time.js';

export interface Notification {
  notification_id: string;
  title: string | null;
  message: string;
  created_at: string;
}

type ChangeType = 'added' | 'removed' | 'updated' | 'current';
type Listener = (type: ChangeType, notifications: Record<string, Notification>) => void;

class Notifications {
  readonly all = new Map<string, Notification>();
  private readonly listeners = new Set<Listener>();

  listen(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  emit(type: ChangeType, list: Notification[]): void {
    const payload = Object.fromEntries(list.map((n) => [n.notification_id, n]));
    for (const l of this.listeners) l(type, payload);
  }
}

const byHome = new WeakMap<Home, Notifications>();

/** The notifications of a home (one set per home; the WebSocket commands read it). */
export function notificationsOf(home: Home): Notifications {
  let n = byHome.get(home);
  if (!n) byHome.set(home, (n = new Notifications()));
  return n;
}

/** 32 hex characters, as HA's random notification ids. */
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export function registerPersistentNotificationServices(home: Home): void {
  const n = notificationsOf(home);
  home.registerService('persistent_notification', {
    service: 'create',
    name: 'Create',
    description: 'Shows a notification on the notifications panel.',
    fields: { message: required(str()), title: str(), notification_id: str() },
    run(d, ctx) {
      const id = (d.notification_id as string | undefined) ?? randomId();
      const existed = n.all.has(id);
      const note: Notification = {
        notification_id: id,
        title: (d.title as string | undefined) ?? null,
        message: d.message as string,
        created_at: isoUs(home.nowUs()),
      };
      n.all.set(id, note);
      n.emit(existed ? 'updated' : 'added', [note]);
      home.fire('persistent_notifications_updated', {}, ctx.context);
    },
  });
  home.registerService('persistent_notification', {
    service: 'dismiss',
    name: 'Dismiss',
    description: 'Deletes a notification from the notifications panel.',
    fields: { notification_id: required(str()) },
    run(d, ctx) {
      const note = n.all.get(d.notification_id as string);
      // HA ignores an unknown id.
      if (!note) return;
      n.all.delete(note.notification_id);
      n.emit('removed', [note]);
      home.fire('persistent_notifications_updated', {}, ctx.context);
    },
  });
  home.registerService('persistent_notification', {
    service: 'dismiss_all',
    name: 'Dismiss all',
    description: 'Deletes all notifications from the notifications panel.',
    fields: {},
    run(_d, ctx) {
      const list = [...n.all.values()];
      n.all.clear();
      if (list.length) n.emit('removed', list);
      home.fire('persistent_notifications_updated', {}, ctx.context);
    },
  });
}
