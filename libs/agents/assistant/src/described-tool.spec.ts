import type { ToolSpec } from '@sweatpants/agent-runtime';
import { toolDescribedBy } from './described-tool';

const tool = (name: string, description: string): ToolSpec => ({
  name,
  description,
  inputSchema: { type: 'object' },
});

/** server-everything's tools, as it describes them. */
const TOOLS = [
  tool('everything_echo', 'Echoes back the input string'),
  tool(
    'everything_get-env',
    'Returns all environment variables, helpful for debugging MCP server configuration',
  ),
  tool('everything_get-sum', 'Returns the sum of two numbers'),
  tool('everything_get-tiny-image', 'Returns a tiny MCP logo image.'),
  tool('everything_get-resource-reference', 'Returns a resource reference that can be used by MCP clients'),
  tool('everything_toggle-simulated-logging', 'Toggles simulated, random-leveled logging on or off.'),
  tool('everything_trigger-elicitation-request', 'Trigger a Request from the Server for User Elicitation'),
  tool(
    'everything_trigger-url-elicitation',
    'Trigger a URL elicitation so the client can direct the user to a browser flow. Supports two ' +
      "mechanisms: the request path (elicitation/create, default) which awaits the user's response, " +
      'and the error path (UrlElicitationRequiredError, -32042) which signals the client to handle ' +
      'URL elicitation via the error response. Set errorPath=true to use the error path.',
  ),
];

describe('the tool a person describes rather than names', () => {
  it.each([
    ['what is the sum of 3 and 4?', 'everything_get-sum'],
    ['add 3 and 4', 'everything_get-sum'],
    ['echo hello world', 'everything_echo'],
    ['show me a tiny picture', 'everything_get-tiny-image'],
    ['turn the logging on', 'everything_toggle-simulated-logging'],
    ['what environment variables are set?', 'everything_get-env'],
    // the words of a tool's name count before those of another's description
    ['trigger an elicitation request please', 'everything_trigger-elicitation-request'],
    ['trigger a url elicitation', 'everything_trigger-url-elicitation'],
  ])('%j is %s', (text, name) => {
    expect(toolDescribedBy(TOOLS, text)?.tool.name).toBe(name);
  });

  it('gives the tool the words left once those that named it, and the request around them, are out', () => {
    expect(toolDescribedBy(TOOLS, 'can you echo hello world?')?.text).toBe('hello world');
  });

  it.each(['what can you do?', 'hi', 'thanks!', 'how are you?'])('takes %j for no tool', (text) => {
    expect(toolDescribedBy(TOOLS, text)).toBeUndefined();
  });
});
