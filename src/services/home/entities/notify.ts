// notify: one legacy `notify.mobile_app_<device>` service per phone, plus the notify entity
// `notify.<device>` for `notify.send_message`. A delivered notification is recorded as a
// `notification_sent` event and a logbook entry; the entity's state is the last send time.
import { invalid } from '../core/errors.js';
import { list, object, required, str } from '../core/fields.js';
import type { Home } from '../core/home.js';
import type { Context } from '../core/context.js';
import type { ServiceSpec } from '../core/services.js';
import { isoUs } from '../core/time.js';
import type { DomainModule } from './domain.js';

function deliver(
  home: Home,
  device: { id: string; name: string },
  service: string,
  data: Record<string, unknown>,
  context: Context,
) {
  home.fire(
    'notification_sent',
    {
      service,
      device: device.id,
      message: data.message,
      title: data.title ?? null,
      target: data.target ?? null,
      data: data.data ?? null,
    },
    context,
  );
  const title = typeof data.title === 'string' && data.title ? `${data.title}: ` : '';
  home.fire(
    'logbook_entry',
    {
      name: device.name,
      message: `sent notification "${title}${String(data.message)}"`,
      domain: 'notify',
      entity_id: `notify.${device.id}`,
    },
    context,
  );
}

const sendMessage: ServiceSpec = {
  service: 'send_message',
  name: 'Send a notification message',
  fields: { message: required(str()), title: str() },
  plan(s, d, ctx) {
    const device = { id: s.entity_id.slice('notify.'.length), name: s.name };
    return {
      state: isoUs(ctx.home.nowUs()),
      attributes: s.attributes,
      then: () => deliver(ctx.home, device, 'send_message', d, ctx.context),
    };
  },
};

export const notify: DomainModule = {
  domain: 'notify',
  services: [sendMessage],
  setup(device, home) {
    const name = device.name ?? device.id;
    home.registerService('notify', {
      service: `mobile_app_${device.id}`,
      name: `Send a notification via mobile_app_${device.id}`,
      fields: { message: required(str()), title: str(), target: list(str()), data: object() },
      check(d) {
        const image = (d.data as Record<string, unknown> | undefined)?.image;
        if (image !== undefined && typeof image !== 'string') throw invalid('data.image', 'expected str');
      },
      run: (d, ctx) => deliver(ctx.home, { id: device.id, name }, `mobile_app_${device.id}`, d, ctx.context),
    });
    return { state: 'unknown', attributes: { friendly_name: name, supported_features: 1 } };
  },
};
