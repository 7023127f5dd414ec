import { toolRequests } from './tool-requests';

describe('toolRequests: the tools a message names', () => {
  it('reads "use <tool> with <words>"', () => {
    expect(toolRequests('use echo with hello')).toEqual([{ tool: 'echo', text: 'hello' }]);
    expect(toolRequests('Please call the get-sum tool')).toEqual([{ tool: 'get-sum' }]);
    expect(toolRequests('use echo with "hello there".')).toEqual([{ tool: 'echo', text: 'hello there' }]);
  });

  it('reads a tool named in words, as its name with dashes', () => {
    expect(toolRequests('run the long running operation')).toEqual([{ tool: 'long-running-operation' }]);
    // politeness is no part of the name
    expect(toolRequests('run the long running operation please')).toEqual([
      { tool: 'long-running-operation' },
    ]);
    expect(toolRequests('use get tiny image')).toEqual([{ tool: 'get-tiny-image' }]);
    expect(toolRequests('call the get sum tool with 2 and 3')).toEqual([
      { tool: 'get-sum', text: '2 and 3' },
    ]);
  });

  it('reads several, joined by then, in the order said', () => {
    expect(toolRequests('use echo with hi, then use trigger-elicitation-request')).toEqual([
      { tool: 'echo', text: 'hi' },
      { tool: 'trigger-elicitation-request' },
    ]);
  });

  it('finds none in a message that names no tool', () => {
    expect(toolRequests('what can you do?')).toEqual([]);
    expect(toolRequests('I use my bike then walk')).toEqual([]);
  });
});
