export { createAssistant, type AssistantOptions } from './assistant-agent';
export { ASSISTANT_OFFLINE_RULES, offeredTool, wordsProperty } from './offline-rules';
export { toolRequests, type ToolRequest } from './tool-requests';
