// The tools HA's MCP server exposes: its Assist API's intent tools (the same intent handlers
// as the conversation agent), GetLiveContext and GetDateTime. Names and slot arguments are
// HA's; an intent's error response comes back as a tool error with HA's response as text.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from '../core/context.js';
import type { Home } from '../core/home.js';
import { handleIntent } from '../conversation/intents.js';
import { liveContext } from './live-context.js';

const target = {
  name: z.string().optional().describe('Name of a device or entity'),
  area: z.string().optional().describe('Name of an area'),
  floor: z.string().optional().describe('Name of a floor'),
  domain: z.array(z.string()).optional().describe('Domains such as light, switch, cover'),
  device_class: z.array(z.string()).optional().describe('Device classes such as garage, blind'),
};

const INTENT_TOOLS: Array<{ name: string; description: string; args?: z.ZodRawShape }> = [
  {
    name: 'HassTurnOn',
    description:
      'Turns on/opens/presses a device or entity. For locks, this performs a lock action. Use for requests like "turn on", "activate", "enable" or "open".',
  },
  {
    name: 'HassTurnOff',
    description:
      'Turns off/closes a device or entity. For locks, this performs an unlock action. Use for requests like "turn off", "deactivate", "disable" or "close".',
  },
  {
    name: 'HassLightSet',
    description: 'Sets the brightness percentage or color of a light',
    args: {
      brightness: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe('The brightness percentage of the light between 0 and 100, where 0 is off and 100 is fully lit'),
      color: z.string().optional().describe('A color name such as red or blue'),
    },
  },
  {
    name: 'HassClimateSetTemperature',
    description: 'Sets the target temperature of a climate device or entity',
    args: { temperature: z.number().describe('The target temperature') },
  },
  { name: 'HassClimateGetTemperature', description: 'Gets the current temperature of a climate device or entity' },
  {
    name: 'HassSetPosition',
    description: 'Sets the position of a device or entity (a cover: 0 is closed, 100 is open)',
    args: { position: z.number().int().min(0).max(100).describe('The position between 0 and 100') },
  },
  { name: 'HassMediaPause', description: 'Pauses a media player' },
  { name: 'HassMediaUnpause', description: 'Resumes a media player' },
  { name: 'HassMediaNext', description: 'Skips a media player to the next item' },
  { name: 'HassMediaPrevious', description: 'Replays the previous item for a media player' },
  {
    name: 'HassSetVolume',
    description: 'Sets the volume percentage of a media player',
    args: { volume_level: z.number().min(0).max(100).describe('The volume percentage of the media player') },
  },
];

/**
 * Registers the tools on a server for one request, acting with `context` (the token's user);
 * `commit` makes what a tool changed durable before the tool answers.
 */
export function registerHomeTools(
  server: McpServer,
  home: Home,
  context: () => Context,
  commit: () => Promise<void>,
): void {
  for (const tool of INTENT_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: { ...target, ...tool.args } },
      async (args: Record<string, unknown>) => {
        const r = await handleIntent(home, tool.name, args, context());
        await commit();
        const { language: _l, card: _c, ...shown } = r;
        return {
          content: [{ type: 'text' as const, text: JSON.stringify(shown) }],
          ...(r.response_type === 'error' ? { isError: true } : {}),
        };
      },
    );
  }
  server.registerTool(
    'GetLiveContext',
    {
      description:
        'Provides real-time information about the CURRENT state, value, or mode of devices, sensors, entities, or areas. Use this tool for questions about the current state of the home.',
    },
    async () => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ success: true, result: liveContext(home) }) }],
    }),
  );
  server.registerTool('GetDateTime', { description: 'Provides the current date and time.' }, async () => {
    const now = new Date(home.clock.ms());
    const tz = home.location.time_zone;
    const part = (o: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: tz, ...o }).format(now);
    const date = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
    const result = {
      date,
      time: part({ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }),
      timezone: tz,
      weekday: part({ weekday: 'long' }),
    };
    return { content: [{ type: 'text' as const, text: JSON.stringify({ success: true, result }) }] };
  });
}
