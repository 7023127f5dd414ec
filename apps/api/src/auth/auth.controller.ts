import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  LoginRequestSchema,
  RegisterRequestSchema,
  type AuthResponse,
  type LoginRequest,
  type RegisterRequest,
  type User,
} from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { ZodPipe } from '../validation/zod.pipe';
import type { AuthUser } from './auth-user';
import { CurrentUser, Public } from './auth.decorators';
import { AuthService } from './auth.service';

/** PROTOCOL.md, Auth. */
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  /** `POST /api/auth/register` → 201 `{token, user}`; an email already registered is a 409. */
  @Public()
  @Post('register')
  async register(@Body(new ZodPipe(RegisterRequestSchema)) body: RegisterRequest): Promise<AuthResponse> {
    const registered = await this.auth.register(body);
    if (!registered.ok) {
      throw new ApiError('conflict', 'an account with this email exists already', [
        { field: 'email', message: 'is registered already' },
      ]);
    }
    return registered.value;
  }

  /** `POST /api/auth/login` → 200 `{token, user}`; a wrong email or password is a 401. */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body(new ZodPipe(LoginRequestSchema)) body: LoginRequest): Promise<AuthResponse> {
    const answer = await this.auth.login(body);
    if (!answer) throw new ApiError('unauthenticated', 'wrong email or password');
    return answer;
  }

  /** `GET /api/auth/me` → the caller. */
  @Get('me')
  me(@CurrentUser() user: AuthUser): User {
    return user;
  }
}
