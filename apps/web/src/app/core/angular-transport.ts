import { HttpClient, HttpErrorResponse, type HttpResponse as AngularResponse } from '@angular/common/http';
import type { HttpRequest, HttpTransport } from '@sweatpants/domain';
import { firstValueFrom, type Observable } from 'rxjs';

/**
 * The typed client's transport over Angular's HttpClient: every call goes through the app's
 * interceptors. An HTTP error status is an answer to hand back; only a call that got none (status
 * 0: offline, refused) rejects, as HttpErrorResponse, which toApiError words for a person.
 */
export function angularTransport(http: HttpClient): HttpTransport {
  const send = (request: HttpRequest): Observable<AngularResponse<unknown>> => {
    const options = { body: request.body, headers: request.headers, observe: 'response' as const };
    switch (request.responseType) {
      case 'binary':
        return http.request(request.method, request.url, { ...options, responseType: 'blob' });
      case 'text':
        return http.request(request.method, request.url, { ...options, responseType: 'text' });
      case 'json':
        return http.request<unknown>(request.method, request.url, { ...options, responseType: 'json' });
    }
  };
  return async (request) => {
    try {
      const answer = await firstValueFrom(send(request));
      return { status: answer.status, body: answer.body ?? undefined };
    } catch (error: unknown) {
      if (error instanceof HttpErrorResponse && error.status !== 0) {
        return { status: error.status, body: error.error as unknown };
      }
      throw error;
    }
  };
}
