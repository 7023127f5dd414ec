/** A tool the person named, and what they said to give it. */
export interface ToolRequest {
  /**
   * the tool as they named it: `echo`, a full name such as `everything_echo`, or words joined by
   * dashes (`long-running-operation`)
   */
  tool: string;
  /** what follows "with", quotes taken off; absent when they said nothing to give it */
  text?: string;
}

/** "use echo with hello", "run the long running operation", "call the get-sum tool with 2 and 3" */
const USE =
  /^\s*(?:please\s+)?(?:use|call|run)\s+(?:the\s+)?([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.-]+)*?)(?:\s+tool)?(?:\s+with\s+([\s\S]+?))?\s*$/i;

/** Politeness after the request: "run the long running operation please". */
const POLITE = /,?\s+(?:please|for me|now|thanks|thank you|cheers)\s*$/i;

/**
 * The tools a message asks for, in the order said: "use echo with hello", "call get-sum", "use
 * echo with hi then use trigger-elicitation-request". None when it asks for no tool.
 *
 * @example
 * toolRequests('use echo with "hello there"'); // [{ tool: 'echo', text: 'hello there' }]
 * toolRequests('use echo with hi, then use get-tiny-image'); // [{ tool: 'echo', text: 'hi' }, { tool: 'get-tiny-image' }]
 */
export function toolRequests(message: string): ToolRequest[] {
  const parts = message.split(/,?\s+(?:and\s+)?then\s+/i);
  const requests: ToolRequest[] = [];
  for (const part of parts) {
    // "…, please", "… for me": politeness is no part of a tool's name
    const match = USE.exec(part.replace(/[.!]+\s*$/, '').replace(POLITE, ''));
    if (!match?.[1]) return requests.length > 0 ? requests : [];
    const text = match[2]?.trim().replace(/^(["'“‘])([\s\S]*)(["'”’])$/, '$2');
    // a name said in words is the tool's with dashes: "long running operation"
    const tool = match[1].replace(/\s+/g, '-');
    requests.push(text ? { tool, text } : { tool });
  }
  return requests;
}
