// auth/current_user: who the access token acts as, in HA's shape. A home key is a long-lived
// access token of the home's owner (every key may do everything), who logged in with HA's own
// username/password provider; HA lists its MFA modules (TOTP by default) with their state.
// Node-RED's Home Assistant nodes ask this first and drop the connection on anything but an admin.
import type { Command } from './commands.js';

export const authCommands: Record<string, Command> = {
  'auth/current_user'(s, msg) {
    const user = s.user();
    s.result(msg.id, {
      id: user.id,
      // HA's onboarding names the first user; a key without a name stands for that owner.
      name: user.name ?? 'Owner',
      is_owner: true,
      is_admin: true,
      credentials: [{ auth_provider_type: 'homeassistant', auth_provider_id: null }],
      mfa_modules: [{ id: 'totp', name: 'Authenticator app', enabled: false }],
    });
  },
};
