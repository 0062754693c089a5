import { call } from './call.js';
import type { ClientCommand } from './client-command.js';
import { complete } from './complete.js';
import { info } from './info.js';
import { listen } from './listen.js';
import { ping } from './ping.js';
import { prompt } from './prompt.js';
import { prompts } from './prompts.js';
import { read } from './read.js';
import { resources } from './resources.js';
import { tasks } from './tasks.js';
import { templates } from './templates.js';
import { tools } from './tools.js';

/** The commands that connect to a server, by name. */
export const CLIENT_COMMAND_IMPLEMENTATIONS: Readonly<Record<string, ClientCommand>> = {
  info,
  tools,
  call,
  resources,
  templates,
  read,
  prompts,
  prompt,
  complete,
  listen,
  ping,
  tasks,
};
