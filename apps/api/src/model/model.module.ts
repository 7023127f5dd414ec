import { Module } from '@nestjs/common';
import { AgentModels } from './agent-models';
import { ModelChoice } from './model-choice';

@Module({ providers: [ModelChoice, AgentModels], exports: [ModelChoice, AgentModels] })
export class ModelModule {}
