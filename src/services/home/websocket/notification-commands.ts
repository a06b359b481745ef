// persistent_notification/get and persistent_notification/subscribe, as HA's frontend uses them.
import { notificationsOf } from '../generic/persistent-notification.js';
import type { Command } from './commands.js';

export const notificationCommands: Record<string, Command> = {
  'persistent_notification/get'(s, msg) {
    s.result(msg.id, [...notificationsOf(s.home).all.values()]);
  },

  'persistent_notification/subscribe'(s, msg) {
    const n = notificationsOf(s.home);
    const id = msg.id;
    const send = (type: string, notifications: unknown) =>
      s.send(JSON.stringify({ id, type: 'event', event: { type, notifications } }));
    s.subscribe(id, n.listen(send));
    s.result(id, null);
    send('current', Object.fromEntries([...n.all].map(([k, v]) => [k, v])));
  },
};
