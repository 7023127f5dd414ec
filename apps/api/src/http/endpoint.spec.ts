import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import {
  Endpoint,
  Input,
  parseEndpointInput,
  servedPath,
  type EndpointInput,
  type EndpointResult,
} from './endpoint';

const { rewind, tree, regenerate, cancel, health, archiveConversation } = HTTP_CONTRACT;

class Probe {
  @Endpoint(rewind)
  async rewind(@Input() { params, body }: EndpointInput<typeof rewind>): EndpointResult<typeof rewind> {
    return Promise.resolve({
      head: `${params.id}:${body.to}`,
      reflog: undefined as never,
    });
  }

  @Endpoint(archiveConversation)
  archive(): EndpointResult<typeof archiveConversation> {
    return Promise.resolve();
  }

  @Endpoint(health)
  check(): { status: 'ok'; db: 'ok'; queue: 'in-process'; model: 'offline' } {
    return { status: 'ok', db: 'ok', queue: 'in-process', model: 'offline' };
  }

  // @ts-expect-error: the answer is not the reply's type
  @Endpoint(cancel)
  async wrongReply(): Promise<{ jobId: string }> {
    return Promise.resolve({ jobId: 'x' });
  }

  // @ts-expect-error: the input is typed for another route than the one served
  @Endpoint(cancel)
  async wrongInput(@Input() _input: EndpointInput<typeof tree>): EndpointResult<typeof cancel> {
    return Promise.resolve({ head: 'h' });
  }
}

const handler = (name: keyof Probe): object =>
  Object.getOwnPropertyDescriptor(Probe.prototype, name)?.value as object;

describe('@Endpoint', () => {
  it("maps the contract's method, path below the global prefix, and status", () => {
    expect(Reflect.getMetadata(METHOD_METADATA, handler('rewind'))).toBe(RequestMethod.POST);
    expect(Reflect.getMetadata(PATH_METADATA, handler('rewind'))).toBe('/conversations/:id/rewind');
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler('rewind'))).toBe(200);
    expect(Reflect.getMetadata(METHOD_METADATA, handler('archive'))).toBe(RequestMethod.DELETE);
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler('archive'))).toBe(204);
    expect(Reflect.getMetadata(PATH_METADATA, handler('check'))).toBe('/health');
  });

  it('refuses a path outside the global prefix', () => {
    expect(servedPath('/api')).toBe('/');
    expect(() => servedPath('/apix/health')).toThrow(/under \/api/);
    expect(() => servedPath('/health')).toThrow(/under \/api/);
  });
});

describe('parseEndpointInput', () => {
  it('gives the parsed params, query and body, defaults filled in', () => {
    expect(parseEndpointInput(tree, { params: { id: 'c1' }, query: { limit: '5' } })).toEqual({
      params: { id: 'c1' },
      query: { limit: 5 },
      body: undefined,
    });
    expect(
      parseEndpointInput(cancel, { params: { id: 'c1' }, query: { ignored: 'x' }, body: { x: 1 } }),
    ).toEqual({
      params: { id: 'c1' },
      query: {},
      body: undefined,
    });
  });

  it('takes a body left out as {} when every field may be left out', () => {
    expect(parseEndpointInput(regenerate, { params: { id: 'c', nodeId: 'n' } }).body).toEqual({});
  });

  it('answers one 400 naming every bad field, of the query and the body alike', () => {
    const refused = (): unknown => parseEndpointInput(tree, { params: { id: 'c' }, query: { limit: '0' } });
    expect(refused).toThrow(ApiError);
    const error = catchError(refused);
    expect(error.getStatus()).toBe(400);
    expect(error.getResponse()).toMatchObject({
      error: { code: 'invalid_request', details: [{ field: 'limit' }] },
    });

    const body = catchError(() => parseEndpointInput(rewind, { params: { id: 'c' } }));
    expect(body.getResponse()).toMatchObject({ error: { details: [{ field: 'body' }] } });
    const fields = catchError(() =>
      parseEndpointInput(rewind, { params: { id: 'c' }, body: { to: '', expectedHead: 5 } }),
    );
    expect(fields.getResponse()).toMatchObject({
      error: { details: [{ field: 'to' }, { field: 'expectedHead' }] },
    });
  });
});

function catchError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
