import { Module } from '@nestjs/common';
import { ModelChoice } from './model-choice';

@Module({ providers: [ModelChoice], exports: [ModelChoice] })
export class ModelModule {}
